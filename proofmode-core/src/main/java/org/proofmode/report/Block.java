// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.List;
import java.util.Objects;
import org.proofmode.verify.Check;

/**
 * One piece of a report's content, in reading order. The renderers ({@link PdfReport}, {@link HtmlReport})
 * give each kind its look; every string may have come from a stranger and is escaped by them.
 */
public sealed interface Block {
    /** How a paragraph stands out. */
    enum Tone {
        /** Body text. */
        NORMAL,
        /** A verdict that holds (VALID, TRUSTED). */
        GOOD,
        /** A verdict that does not (INVALID, INCOMPLETE). */
        BAD,
        /** A note in smaller, grey text. */
        NOTE
    }

    /**
     * A heading.
     *
     * @param level 1 (the title), 2 (a section) or 3 (a subsection)
     * @param text its words
     */
    record Heading(int level, String text) implements Block {
        /** Validates the fields. */
        public Heading {
            if (level < 1 || level > 3) {
                throw new IllegalArgumentException("heading level " + level);
            }
            Objects.requireNonNull(text, "text");
        }
    }

    /** A paragraph of text. */
    record Paragraph(String text, Tone tone) implements Block {
        /** Validates the fields. */
        public Paragraph {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(tone, "tone");
        }
    }

    /** Labelled values, one per row. */
    record Fields(List<Field> rows) implements Block {
        /** Copies the rows. */
        public Fields {
            rows = List.copyOf(rows);
        }
    }

    /** One labelled value; {@code mono} for hashes and fingerprints, which must be read character by character. */
    record Field(String label, String value, boolean mono) {
        /** Validates the fields. */
        public Field {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Checks, each with its status, code, subject, message and meaning. */
    record Checks(List<Check> checks) implements Block {
        /** Copies the checks. */
        public Checks {
            checks = List.copyOf(checks);
        }
    }

    /** Shell commands, each a list of words already quoted for a POSIX shell; shown one per line after {@code $ }. */
    record Commands(List<List<String>> commands) implements Block {
        /** Copies the commands. */
        public Commands {
            commands = commands.stream().map(List::copyOf).toList();
        }
    }

    /** A map of the place a proof recorded, drawn from the bundled Natural Earth land outline. */
    record Place(double latitude, double longitude, String alt) implements Block {
        /** Validates the fields. */
        public Place {
            if (!(latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180)) {
                throw new IllegalArgumentException("not a place on Earth: " + latitude + ", " + longitude);
            }
            Objects.requireNonNull(alt, "alt");
        }
    }

    /** A JPEG picture (a thumbnail of the media) with its text alternative. */
    record Picture(byte[] jpeg, int width, int height, String alt) implements Block {
        /** Validates and copies the fields. */
        public Picture {
            jpeg = jpeg.clone();
            if (width < 1 || height < 1) {
                throw new IllegalArgumentException("picture size " + width + "x" + height);
            }
            Objects.requireNonNull(alt, "alt");
        }

        @Override
        public byte[] jpeg() {
            return jpeg.clone();
        }
    }

    /** The next block starts a new page (in print). */
    record PageBreak() implements Block {}
}
