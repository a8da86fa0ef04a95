// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.util.HexFormat;
import java.util.regex.Pattern;

/** Lower-case hexadecimal, and recognising SHA-256 digests written that way. */
public final class Hex {
    private static final HexFormat LOWER = HexFormat.of();
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private Hex() {}

    /** Encodes bytes as lower-case hex. */
    public static String encode(byte[] bytes) {
        return LOWER.formatHex(bytes);
    }

    /**
     * Decodes hex of either case.
     *
     * @throws IllegalArgumentException if it is not an even number of hex digits
     */
    public static byte[] decode(String hex) {
        return LOWER.parseHex(hex);
    }

    /** Tells whether the text is 64 hex digits (either case). */
    public static boolean isSha256(String text) {
        return text != null && SHA256.matcher(text).matches();
    }
}
