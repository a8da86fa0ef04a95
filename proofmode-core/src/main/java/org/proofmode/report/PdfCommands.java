// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Lays one shell command out in lines that fit the page, as a shell reads them back: the first line starts
 * with {@code $ }, a line that goes on ends with {@code \}. Between words the next line is indented; a word
 * too long for a line is cut into pieces quoted one by one ({@code 'abc'\} then {@code 'def'} at the start
 * of the next line), which the shell joins into the same word.
 */
final class PdfCommands {
    private static final String PROMPT = "$ ";
    private static final String INDENT = "    ";
    private static final String GOES_ON = " \\";

    private PdfCommands() {}

    static List<String> lines(PdfText text, List<String> words, float size, float max) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder(PROMPT);
        boolean empty = true;
        for (String word : words) {
            String sep = empty ? "" : " ";
            if (text.width(line + sep + word + GOES_ON, size) <= max) {
                line.append(sep).append(word);
                empty = false;
                continue;
            }
            if (!empty) {
                out.add(line + GOES_ON);
                line = new StringBuilder(INDENT);
                if (text.width(line + word + GOES_ON, size) <= max) {
                    line.append(word);
                    continue;
                }
            }
            // The word alone is too long: cut its unquoted text into pieces, each quoted.
            String raw = unquote(word);
            while (!raw.isEmpty()) {
                float room = max - text.width(line + "''\\", size);
                int n = Math.max(1, text.fitting(raw, size, room));
                while (n > 1 && text.width(line + quote(raw.substring(0, n)) + "\\", size) > max) {
                    n--;
                }
                line.append(quote(raw.substring(0, n)));
                raw = raw.substring(n);
                if (!raw.isEmpty()) {
                    out.add(line + "\\");
                    line = new StringBuilder();
                }
            }
            empty = false;
        }
        out.add(line.toString());
        return out;
    }

    /** The text a word quoted by {@link SelfCheck#quote} stands for. */
    static String unquote(String word) {
        if (word.length() >= 2 && word.startsWith("'") && word.endsWith("'")) {
            return word.substring(1, word.length() - 1).replace("'\\''", "'");
        }
        return word;
    }

    private static String quote(String piece) {
        return "'" + piece.replace("'", "'\\''") + "'";
    }
}
