// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

/**
 * The one escaper for text that came from outside (record fields, file names, key user IDs, messages
 * quoting them) before it is printed to a terminal or a log: every character that could end a line, move
 * the cursor, start a terminal escape sequence or reorder the text on screen becomes a visible escape.
 *
 * <p>Escaped: the C0 controls and DEL (line feed as {@code \n}, carriage return as {@code \r}, tab as
 * {@code \t}, others as {@code \u001b}-style), the C1 controls U+0080–U+009F, the bidirectional marks and
 * overrides (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the line and paragraph separators
 * U+2028 and U+2029, unpaired surrogates, and the backslash itself ({@code \\}), so that an escape in the
 * output always means an escaped character and never text the sender wrote to look like one.
 *
 * <p>Security: this is for text output. HTML output sets text as text (the server's page); JSON output is
 * escaped by its writer.
 */
public final class SafeText {
    private SafeText() {}

    /** Returns {@code s} with every unsafe character replaced by a visible escape; see the class comment. */
    public static String escape(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                if (b != null) {
                    b.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (!Character.isSurrogate(c) && !unsafe(c)) {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\\' -> b.append("\\\\");
                default -> b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b == null ? s : b.toString();
    }

    /** Tells whether a (non-surrogate) character must be escaped. */
    private static boolean unsafe(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\\'
                || c == 0x061c || (c >= 0x200b && c <= 0x200f)
                || (c >= 0x2060 && c <= 0x2064) || c == 0xfeff
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
                || c == 0x2028 || c == 0x2029;
    }
}
