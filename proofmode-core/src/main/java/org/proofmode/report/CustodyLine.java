// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Objects;
import java.util.Optional;

/**
 * One line of an evidence server's chain of custody for an item, as a report shows it.
 *
 * @param at when, ISO-8601 UTC
 * @param action what happened (INTAKE, DOWNLOAD, REPORT, ...)
 * @param actor who (the upload token's name and id)
 * @param verdict the verification result, for intake and re-verification
 * @param detail one line more
 * @param hash the line's hash in the server's custody hash chain
 */
public record CustodyLine(String at, String action, String actor, Optional<String> verdict, String detail, String hash) {
    /** Validates the fields. */
    public CustodyLine {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(hash, "hash");
    }
}
