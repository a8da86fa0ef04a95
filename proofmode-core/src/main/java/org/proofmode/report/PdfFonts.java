// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fontbox.ttf.CmapLookup;
import org.apache.fontbox.ttf.OpenTypeFont;
import org.apache.fontbox.ttf.TTFParser;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.io.RandomAccessReadBuffer;
import org.apache.pdfbox.io.RandomAccessReadBufferedFile;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;

/**
 * The fonts of one PDF: Liberation Sans (in PDFBox's jar) first, then, for the characters it lacks, the
 * system's fonts that cover other scripts, each embedded as a subset of the glyphs drawn. A system font is
 * read only when a character needs it, so a report in Latin letters has the same bytes with or without them.
 * Only TrueType outlines can be subset by PDFBox, so the CJK font is Droid Sans Fallback (TrueType) rather
 * than Noto Sans CJK (CFF), and emoji come from Symbola (outlines, one colour) rather than Noto Color
 * Emoji (bitmaps). A character no font covers is drawn as {@code [U+XXXX]} by {@link PdfText}.
 */
final class PdfFonts implements Closeable {
    private static final String LIBERATION = "/org/apache/pdfbox/resources/ttf/LiberationSans-Regular.ttf";

    /** The system fonts tried, in order, as Debian installs them (packages in packaging/ and .ci/run). */
    static final List<Path> SYSTEM = List.of(
            Path.of("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/noto/NotoSansMath-Regular.ttf"),
            Path.of("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
            Path.of("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"));

    private final PDDocument pdf;
    private final List<Path> candidates;
    private final List<Face> faces = new ArrayList<>();
    private final Map<Integer, Optional<Face>> byChar = new HashMap<>();
    private int tried;

    /** One font: its parsed file (kept open until the PDF is saved: the subset is made then) and the PDF font. */
    private record Face(TrueTypeFont ttf, CmapLookup cmap, PDFont font) {}

    /**
     * The fonts for a document.
     *
     * @param candidates the system fonts to try after Liberation Sans (missing files are skipped)
     */
    PdfFonts(PDDocument pdf, List<Path> candidates) throws IOException {
        this.pdf = pdf;
        this.candidates = List.copyOf(candidates);
        try (InputStream in = PDDocument.class.getResourceAsStream(LIBERATION)) {
            if (in == null) {
                throw new IllegalStateException(LIBERATION + " is missing from PDFBox's jar");
            }
            faces.add(face(new TTFParser().parse(new RandomAccessReadBuffer(in))));
        }
    }

    /** The first font, Liberation Sans. */
    PDFont primary() {
        return faces.get(0).font();
    }

    /** The first font that has a glyph for the character, if any. */
    Optional<PDFont> fontFor(int codePoint) {
        return byChar.computeIfAbsent(codePoint, this::find).map(Face::font);
    }

    private Optional<Face> find(int c) {
        for (int i = 0; ; i++) {
            if (i == faces.size() && !next()) {
                return Optional.empty();
            }
            if (faces.get(i).cmap().getGlyphId(c) > 0) {
                return Optional.of(faces.get(i));
            }
        }
    }

    /** Loads the next usable system font; false when none is left. */
    private boolean next() {
        while (tried < candidates.size()) {
            Path p = candidates.get(tried++);
            if (!Files.isRegularFile(p)) {
                continue;
            }
            TrueTypeFont ttf = null;
            try {
                ttf = new TTFParser().parse(new RandomAccessReadBufferedFile(p.toFile()));
                if (ttf instanceof OpenTypeFont o && o.isPostScript()) {
                    ttf.close();
                    continue;
                }
                faces.add(face(ttf));
                return true;
            } catch (IOException | RuntimeException e) {
                // A damaged or unusual font file is skipped: the next one, or the [U+XXXX] fallback, shows the text.
                closeQuietly(ttf);
            }
        }
        return false;
    }

    private Face face(TrueTypeFont ttf) throws IOException {
        // No glyph substitution (GSUB): PDFBox would compile a regular expression of the font's substitution
        // rules for every line shown, most of a report's time, to make ligatures that a reader copying a hash
        // or a command is better without.
        ttf.setEnableGsub(false);
        CmapLookup cmap = ttf.getUnicodeCmapLookup(false);
        if (cmap == null) {
            throw new IOException("no Unicode character map");
        }
        return new Face(ttf, cmap, PDType0Font.load(pdf, ttf, true));
    }

    private static void closeQuietly(TrueTypeFont ttf) {
        if (ttf != null) {
            try {
                ttf.close();
            } catch (IOException e) {
                // nothing more to do for a font that is not used
            }
        }
    }

    @Override
    public void close() {
        faces.forEach(f -> closeQuietly(f.ttf()));
    }
}
