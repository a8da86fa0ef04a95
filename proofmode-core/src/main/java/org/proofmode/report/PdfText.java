// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import com.ibm.icu.text.ArabicShaping;
import com.ibm.icu.text.ArabicShapingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.text.Bidi;
import java.util.List;
import java.util.Locale;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.proofmode.util.SafeText;

/**
 * Text for the PDF: made safe ({@link SafeText}: control, format and bidirectional characters become
 * visible escapes), each character drawn with the first of the document's fonts that has it
 * ({@link PdfFonts}) and one that none has written as {@code [U+XXXX]}, measured, broken into lines, and a
 * line that mixes in right-to-left script put in visual order.
 */
final class PdfText {
    /** Arabic letters in the forms they take in a word (initial, medial, final, lam-alef), in logical order. */
    private static final ArabicShaping SHAPING = new ArabicShaping(ArabicShaping.LETTERS_SHAPE | ArabicShaping.TEXT_DIRECTION_LOGICAL
            | ArabicShaping.LENGTH_GROW_SHRINK);

    private final PdfFonts fonts;
    private final boolean rightToLeft;

    /** A piece of a line drawn with one font. */
    record Run(PDFont font, String text) {}

    PdfText(PdfFonts fonts) {
        this(fonts, false);
    }

    /** Whether the document is in a right-to-left language. */
    boolean rightToLeft() {
        return rightToLeft;
    }

    /** Text for a document in a right-to-left language when {@code rightToLeft}: a line without a strong direction of its own is read right to left. */
    PdfText(PdfFonts fonts, boolean rightToLeft) {
        this.fonts = fonts;
        this.rightToLeft = rightToLeft;
    }

    /** The text as it can be drawn. */
    String safe(String s) {
        String t = SafeText.escape(s);
        StringBuilder out = new StringBuilder(t.length());
        t.codePoints().forEach(c -> {
            if (fonts.fontFor(c).isPresent()) {
                out.appendCodePoint(c);
            } else if (c != 0xFE0E && c != 0xFE0F) {
                // The variation selectors (text or emoji style) are dropped when no font has them: they draw nothing.
                out.append(String.format(Locale.ROOT, "[U+%04X]", c));
            }
        });
        return out.toString();
    }

    /** Already safe text cut where the font changes. */
    List<Run> runs(String safe) {
        List<Run> runs = new ArrayList<>();
        PDFont current = null;
        StringBuilder piece = new StringBuilder();
        for (int i = 0; i < safe.length(); ) {
            int c = safe.codePointAt(i);
            i += Character.charCount(c);
            PDFont f = fonts.fontFor(c).orElse(fonts.primary());
            if (f != current && piece.length() > 0) {
                runs.add(new Run(current, piece.toString()));
                piece.setLength(0);
            }
            current = f;
            piece.appendCodePoint(c);
        }
        if (piece.length() > 0) {
            runs.add(new Run(current, piece.toString()));
        }
        return runs;
    }

    /**
     * A line of safe text in the order it is drawn, left to right: the same text when it has no right-to-left
     * characters, else its Arabic letters shaped (joined as in a word, ICU4J's {@link ArabicShaping}: PDFBox
     * draws the glyphs it is given) and the line reordered by the Unicode bidirectional algorithm, each
     * right-to-left run reversed. A line is read left to right in a left-to-right document, and by its first
     * strong character in a right-to-left one.
     */
    String visual(String line) {
        return visual(line, rightToLeft);
    }

    /**
     * A line of the report's own words (a translation) in drawing order: in a right-to-left document read
     * right to left whatever its first letter (a line of an Arabic sentence may start with a command's name),
     * else as {@link #visual(String)}.
     */
    String visualSentence(String line) {
        return rightToLeft ? visual(line, Bidi.DIRECTION_RIGHT_TO_LEFT) : visual(line);
    }

    /** {@link #visual(String)} in a document of the given direction. */
    static String visual(String line, boolean rightToLeft) {
        return visual(line, rightToLeft ? Bidi.DIRECTION_DEFAULT_RIGHT_TO_LEFT : Bidi.DIRECTION_LEFT_TO_RIGHT);
    }

    /** A line in drawing order, read in the given {@link Bidi} direction; unchanged when it has no right-to-left characters. */
    private static String visual(String line, int direction) {
        char[] chars = line.toCharArray();
        if (!Bidi.requiresBidi(chars, 0, chars.length)) {
            return line;
        }
        line = shaped(line);
        Bidi bidi = new Bidi(line, direction);
        int n = bidi.getRunCount();
        String[] parts = new String[n];
        byte[] levels = new byte[n];
        for (int i = 0; i < n; i++) {
            String run = line.substring(bidi.getRunStart(i), bidi.getRunLimit(i));
            levels[i] = (byte) bidi.getRunLevel(i);
            parts[i] = levels[i] % 2 == 1 ? reverse(run) : run;
        }
        Bidi.reorderVisually(levels, 0, parts, 0, n);
        return String.join("", parts);
    }

    private static String shaped(String line) {
        try {
            return SHAPING.shape(line);
        } catch (ArabicShapingException e) {
            return line; // not thrown for these options; the letters are then drawn unjoined
        }
    }

    /** Pairs of characters drawn as each other in a right-to-left run (Unicode's Bidi_Mirroring_Glyph, the common ones). */
    private static final String MIRRORED = "()[]{}<>\u00ab\u00bb\u2039\u203a\u2264\u2265\u300c\u300d\u300e\u300f\u3008\u3009\u300a\u300b\uff08\uff09";

    /**
     * A right-to-left run in drawing order: its characters reversed, each bracket drawn as its mirror, so that
     * "(" still opens what follows it when read right to left (the bidirectional algorithm's rule L4).
     */
    private static String reverse(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = s.length(); i > 0; ) {
            int c = s.codePointBefore(i);
            i -= Character.charCount(c);
            int at = c < 0x10000 ? MIRRORED.indexOf(c) : -1;
            out.appendCodePoint(at < 0 ? c : MIRRORED.charAt(at ^ 1));
        }
        return out.toString();
    }

    /** Width in points of already safe text. */
    float width(String safe, float size) {
        try {
            float w = 0;
            for (Run r : runs(safe)) {
                w += r.font().getStringWidth(r.text()) / 1000f * size;
            }
            return w;
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
        // Text is never laid out so that a line of it starts like a command of "Check it yourself": a line
        // that would start with $ is marked as going on from the line before.
        lines.replaceAll(l -> l.stripLeading().startsWith("$") ? CONTINUED + l.stripLeading() : l);
        return lines;
    }

    /** What a line of text that would start with {@code $} starts with instead. */
    static final String CONTINUED = "\u2026 ";

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
