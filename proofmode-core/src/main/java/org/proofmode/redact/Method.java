// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

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
        return EnumIds.id(this);
    }

    /** The method of a record's name. */
    static Method of(String id) {
        return EnumIds.of(Method.class, id, "redaction method");
    }
}
