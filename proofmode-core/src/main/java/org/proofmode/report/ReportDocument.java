// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.i18n.Language;
import org.proofmode.util.Hex;

/**
 * A verification report as content, before it is rendered: a title, its blocks in reading order, and
 * what makes its bytes reproducible.
 *
 * @param title the document title (metadata and first heading)
 * @param date the report's date, ISO-8601 UTC, if one was given or found in its inputs
 * @param id 64 hex digits identifying the content (the PDF's document ID), the same for the same inputs
 * @param blocks the content
 * @param language the language of its own sentences (the PDF's and the page's language, and their direction)
 */
public record ReportDocument(String title, Optional<String> date, String id, List<Block> blocks, Language language) {
    /** Validates and copies the fields. */
    public ReportDocument {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(date, "date");
        if (!Hex.isSha256(id)) {
            throw new IllegalArgumentException("id must be 64 hex digits");
        }
        blocks = List.copyOf(blocks);
    }

    /** A report in English. */
    public ReportDocument(String title, Optional<String> date, String id, List<Block> blocks) {
        this(title, date, id, blocks, Language.EN);
    }
}
