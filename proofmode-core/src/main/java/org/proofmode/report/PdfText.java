// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.proofmode.util.SafeText;

/**
 * Text for the PDF: made safe ({@link SafeText}: control, format and bidirectional characters become
 * visible escapes), characters the font has no glyph for written as {@code \\uXXXX}, measured, and
 * broken into lines.
 */
final class PdfText {
    private final PDFont font;
    private final Map<Integer, Boolean> drawable = new HashMap<>();

    PdfText(PDFont font) {
        this.font = font;
    }

    PDFont font() {
        return font;
    }

    /** The text as it can be drawn. */
    String safe(String s) {
        String t = SafeText.escape(s);
        StringBuilder out = new StringBuilder(t.length());
        t.codePoints().forEach(c -> {
            if (drawable.computeIfAbsent(c, this::hasGlyph)) {
                out.appendCodePoint(c);
            } else {
                out.append(c > 0xFFFF ? String.format(Locale.ROOT, "\\U%08x", c) : String.format(Locale.ROOT, "\\u%04x", c));
            }
        });
        return out.toString();
    }

    private boolean hasGlyph(int c) {
        try {
            font.encode(new String(Character.toChars(c)));
            return true;
        } catch (IllegalArgumentException | IOException e) {
            return false;
        }
    }

    /** Width in points of already safe text. */
    float width(String safe, float size) {
        try {
            return font.getStringWidth(safe) / 1000f * size;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Breaks safe text into lines no wider than {@code max}: at spaces, and inside a word only when the
     * word alone is wider (a hash, a long file name).
     */
    List<String> wrap(String safe, float size, float max) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : safe.split(" ", -1)) {
            String candidate = line.length() == 0 ? word : line + " " + word;
            if (width(candidate, size) <= max) {
                line.setLength(0);
                line.append(candidate);
                continue;
            }
            if (line.length() > 0) {
                lines.add(line.toString());
                line.setLength(0);
            }
            String rest = word;
            while (width(rest, size) > max) {
                int n = fitting(rest, size, max);
                lines.add(rest.substring(0, n));
                rest = rest.substring(n);
            }
            line.append(rest);
        }
        lines.add(line.toString());
        return lines;
    }

    /** How many leading characters of {@code s} fit in {@code max} (at least one). */
    int fitting(String s, float size, float max) {
        int n = 1;
        while (n < s.length() && width(s.substring(0, n + 1), size) <= max) {
            n++;
        }
        if (n < s.length() && Character.isHighSurrogate(s.charAt(n - 1))) {
            n = Math.max(1, n - 1);
        }
        return n;
    }
}
