package org.proofmode.redact;

import java.util.Locale;

/** How a region is hidden. */
public enum Method {
    /** Blocks of at least 8 pixels, each its average colour. Irreversible. */
    PIXELATE,
    /** A smooth blur of block averages; irreversible like pixelation, softer to look at. */
    BLUR,
    /** Opaque black. */
    FILL;

    /** The name used in records and on the command line: {@code pixelate}, {@code blur}, {@code fill}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The method of a record's name. */
    static Method of(String id) {
        for (Method m : values()) {
            if (m.id().equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown redaction method: " + id);
    }
}
