// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDPropertyList;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.pdmodel.graphics.state.RenderingMode;
import org.proofmode.i18n.Texts;
import org.proofmode.verify.Check;
import org.proofmode.verify.Status;

/**
 * Lays a report's blocks out on A4 pages: each piece becomes an {@link Op}, a tagged drawing at a fixed
 * place, so that the page count is known before anything is drawn.
 *
 * <p>A report in a right-to-left language is laid out mirrored: text is set against the right margin, a
 * table's label or status column is on the right and its values on the left, a verdict's coloured bar is on
 * the right, pictures run from the right. Commands stay left to right against the left edge of their box, and
 * hashes, fingerprints, codes and file names keep their own order inside a line ({@link PdfText}).
 */
final class PdfLayout {
    /** Draws one piece. */
    interface Draw {
        void draw(Canvas c) throws IOException;
    }

    /**
     * One tagged piece of a page: its structure type (H1, P, Figure, Code, TH, TD...), alternative text,
     * drawing, the element that holds it (a table's row) if not the document, and for a header cell whether
     * it heads a {@code Row} or a {@code Column}.
     */
    record Op(String tag, Optional<String> alt, Draw draw, Optional<Group> group, Optional<String> scope) {}

    /**
     * A structure element that holds elements, not content: a {@code Table}, or a {@code TR} in one. Each is
     * one element however many pages it spans; two groups are the same only if they are the same object.
     */
    static final class Group {
        private final String tag;
        private final Optional<Group> parent;

        Group(String tag, Optional<Group> parent) {
            this.tag = tag;
            this.parent = parent;
        }

        String tag() {
            return tag;
        }

        Optional<Group> parent() {
            return parent;
        }
    }

    /** The scope of a header cell that heads its row. */
    static final String ROW = "Row";
    /** The scope of a header cell that heads its column. */
    static final String COLUMN = "Column";

    /** Where ops draw. */
    record Canvas(PDDocument pdf, PDPageContentStream cs, Map<Block.Picture, PDImageXObject> images) {}

    static final float PAGE_WIDTH = PDRectangle.A4.getWidth();
    static final float PAGE_HEIGHT = PDRectangle.A4.getHeight();
    static final float LEFT = 56;
    static final float WIDTH = PAGE_WIDTH - 2 * LEFT;
    static final float TOP = PAGE_HEIGHT - 56;
    static final float BOTTOM = 64;
    private static final float[] BLACK = {0.07f, 0.07f, 0.07f};
    private static final float[] GREY = {0.33f, 0.33f, 0.33f};
    private static final float[] GREEN = {0.18f, 0.49f, 0.20f};
    private static final float[] RED = {0.78f, 0.16f, 0.16f};
    private static final float[] AMBER = {0.63f, 0.36f, 0f};
    private static final float LABEL_WIDTH = 150;
    private static final float CHECK_INDENT = 40;

    /** How a line is read and where it is set. */
    private enum Flow {
        /** The report's own words: in a right-to-left report read right to left, against the right edge. */
        SENTENCE,
        /** Data (a hash, a code, a check's message): read by its first letter; against the right edge in a right-to-left report. */
        DATA,
        /** A command: left to right against the left edge in every report. */
        CODE,
        /**
         * A check's message, an English sentence (whatever name or date in another script it holds): read left to
         * right on each of its lines, so that a wrapped line or a name in Arabic at its start does not reverse its
         * words; against the right edge in a right-to-left report.
         */
        ENGLISH
    }

    private final PdfText text;
    private final Texts x;
    private final ReportMeanings meanings;
    private final boolean rtl;
    private final List<List<Op>> pages = new ArrayList<>();
    private List<Op> page;
    private float y;

    PdfLayout(PdfText text, Texts x) {
        this.text = text;
        this.x = x;
        this.meanings = ReportMeanings.of(x.language());
        this.rtl = text.rightToLeft();
        newPage();
    }

    /** The left edge of a box of width {@code w} whose left edge is {@code left} in a left-to-right report: mirrored in a right-to-left one. */
    private float mirror(float left, float w) {
        return rtl ? 2 * LEFT + WIDTH - left - w : left;
    }

    List<List<Op>> pages() {
        return pages;
    }

    /** Lays out the blocks; pictures in a row (a video's key frames) share one line. */
    void addAll(List<Block> blocks) {
        List<Block.Picture> row = new ArrayList<>();
        for (Block b : blocks) {
            if (b instanceof Block.Picture p) {
                row.add(p);
                continue;
            }
            if (!row.isEmpty()) {
                pictures(row);
                row = new ArrayList<>();
            }
            add(b);
        }
        if (!row.isEmpty()) {
            pictures(row);
        }
    }

    private void add(Block b) {
        if (b instanceof Block.Heading h) {
            heading(h);
        } else if (b instanceof Block.Paragraph p) {
            paragraph(p);
        } else if (b instanceof Block.Fields f) {
            Group table = new Group("Table", Optional.empty());
            f.rows().forEach(r -> field(r, new Group("TR", Optional.of(table))));
            y -= 6;
        } else if (b instanceof Block.Checks c) {
            Group table = new Group("Table", Optional.empty());
            if (!c.checks().isEmpty()) {
                checksHeader(new Group("TR", Optional.of(table)));
            }
            c.checks().forEach(k -> check(k, new Group("TR", Optional.of(table))));
            y -= 6;
        } else if (b instanceof Block.Commands c) {
            commands(c);
        } else if (b instanceof Block.Place p) {
            place(p);
        } else if (b instanceof Block.Picture p) {
            pictures(List.of(p));
        } else if (b instanceof Block.PageBreak && !page.isEmpty()) {
            newPage();
        }
    }

    void footer(Canvas c, String line) throws IOException {
        write(c.cs(), LEFT, WIDTH, 34, 7.5f, GREY, false, text.safe(line), Flow.DATA);
    }

    private void heading(Block.Heading h) {
        float size = h.level() == 1 ? 20 : h.level() == 2 ? 15 : 12;
        float before = h.level() == 1 ? 0 : h.level() == 2 ? 14 : 10;
        float lead = size * 1.25f;
        List<String> lines = text.wrap(text.safe(h.text()), size, WIDTH);
        need(before + lines.size() * lead + 60);
        y -= before;
        float top = y;
        boolean rule = h.level() == 2;
        y -= lines.size() * lead + (rule ? 10 : 4);
        place("H" + h.level(), Optional.empty(), c -> {
            for (int i = 0; i < lines.size(); i++) {
                write(c.cs(), LEFT, WIDTH, top - size - i * lead, size, BLACK, true, lines.get(i), Flow.SENTENCE);
            }
            if (rule) {
                c.cs().setStrokingColor(0.6f, 0.6f, 0.6f);
                c.cs().setLineWidth(0.6f);
                c.cs().moveTo(LEFT, top - lines.size() * lead - 3);
                c.cs().lineTo(LEFT + WIDTH, top - lines.size() * lead - 3);
                c.cs().stroke();
            }
        });
    }

    private void paragraph(Block.Paragraph p) {
        boolean boxed = p.tone() == Block.Tone.GOOD || p.tone() == Block.Tone.BAD;
        float size = boxed ? 11.5f : p.tone() == Block.Tone.NOTE ? 8.8f : 10;
        float lead = size * 1.32f;
        float[] colour = p.tone() == Block.Tone.NOTE ? GREY : BLACK;
        float pad = boxed ? 7 : 0;
        List<String> lines = text.wrap(text.safe(p.text()), size, WIDTH - 2 * pad - (boxed ? 6 : 0));
        int at = 0;
        while (at < lines.size()) {
            int room = Math.max(1, (int) ((y - BOTTOM - 2 * pad) / lead));
            if (boxed && room < lines.size() || room < 2 && lines.size() - at > 1) {
                newPageIfUsed();
                room = Math.max(1, (int) ((y - BOTTOM - 2 * pad) / lead));
            }
            List<String> part = lines.subList(at, Math.min(lines.size(), at + room));
            at += part.size();
            float top = y;
            float height = part.size() * lead + 2 * pad;
            y -= height + (boxed ? 8 : 5);
            place("P", Optional.empty(), c -> {
                if (boxed) {
                    float[] bar = p.tone() == Block.Tone.GOOD ? GREEN : RED;
                    c.cs().setNonStrokingColor(p.tone() == Block.Tone.GOOD ? 0.90f : 0.98f, p.tone() == Block.Tone.GOOD ? 0.96f : 0.91f,
                            p.tone() == Block.Tone.GOOD ? 0.90f : 0.90f);
                    c.cs().addRect(LEFT, top - height, WIDTH, height);
                    c.cs().fill();
                    c.cs().setNonStrokingColor(bar[0], bar[1], bar[2]);
                    c.cs().addRect(mirror(LEFT, 5), top - height, 5, height);
                    c.cs().fill();
                }
                float inner = WIDTH - 2 * pad - (boxed ? 6 : 0);
                for (int i = 0; i < part.size(); i++) {
                    write(c.cs(), mirror(LEFT + pad + (boxed ? 6 : 0), inner), inner, top - pad - size - i * lead + 2, size, colour, boxed && i == 0,
                            part.get(i), Flow.SENTENCE);
                }
            });
        }
    }

    /** A field's value column. */
    static final float VALUE_WIDTH = WIDTH - LABEL_WIDTH;
    /** The size of a fixed-width field (hashes, fingerprints): one SHA-256 in hex fits {@link #VALUE_WIDTH} on one line. */
    static final float MONO_SIZE = 9;

    private void field(Block.Field f, Group row) {
        float size = f.mono() ? MONO_SIZE : 9.5f;
        float lead = 12.5f;
        List<String> label = text.wrap(text.safe(f.label()), 8.8f, LABEL_WIDTH - 10);
        List<String> value = text.wrap(text.safe(f.value()), size, VALUE_WIDTH);
        float height = Math.max(label.size(), value.size()) * lead + 3;
        need(height);
        float top = y;
        y -= height;
        cell(row, "TH", Optional.of(ROW), c -> {
            for (int i = 0; i < label.size(); i++) {
                write(c.cs(), mirror(LEFT, LABEL_WIDTH - 10), LABEL_WIDTH - 10, top - 10 - i * lead, 8.8f, GREY, false, label.get(i), Flow.SENTENCE);
            }
        });
        cell(row, "TD", Optional.empty(), c -> {
            for (int i = 0; i < value.size(); i++) {
                write(c.cs(), mirror(LEFT + LABEL_WIDTH, VALUE_WIDTH), VALUE_WIDTH, top - 10 - i * lead, size, BLACK, false, value.get(i),
                        f.mono() ? Flow.DATA : Flow.SENTENCE);
            }
        });
    }

    /** The header row of a table of checks: what each column holds. */
    private void checksHeader(Group row) {
        float height = 13;
        need(height + 60);
        float top = y;
        y -= height;
        String result = text.safe(x.get("report.col.result"));
        String check = text.safe(x.get("report.col.check"));
        cell(row, "TH", Optional.of(COLUMN), c -> write(c.cs(), mirror(LEFT, CHECK_INDENT), CHECK_INDENT, top - 9, 7.5f, GREY, false, result, Flow.SENTENCE));
        cell(row, "TH", Optional.of(COLUMN), c -> write(c.cs(), mirror(LEFT + CHECK_INDENT, WIDTH - CHECK_INDENT), WIDTH - CHECK_INDENT, top - 9, 7.5f,
                GREY, false, check, Flow.SENTENCE));
    }

    private void check(Check k, Group row) {
        float w = WIDTH - CHECK_INDENT;
        List<String> file = text.wrap(text.safe(x.get("report.file", k.subject())), 8, w);
        List<String> message = text.wrap(text.safe(x.dates(k.message())), 9, w);
        List<String> meaning = text.wrap(text.safe(meanings.of(k.code())), 8.3f, w);
        float height = 13 + file.size() * 10.5f + message.size() * 11.5f + meaning.size() * 10.5f + 6;
        need(height);
        float top = y;
        y -= height;
        float[] colour = k.status() == Status.PASS ? GREEN : k.status() == Status.FAIL ? RED : k.status() == Status.WARN ? AMBER : GREY;
        String code = text.safe(k.code());
        float left = mirror(LEFT + CHECK_INDENT, w);
        cell(row, "TD", Optional.empty(), c -> write(c.cs(), mirror(LEFT, CHECK_INDENT), CHECK_INDENT, top - 10, 9, colour, true, k.status().name(), Flow.DATA));
        cell(row, "TD", Optional.empty(), c -> {
            write(c.cs(), left, w, top - 10, 9.5f, BLACK, true, code, Flow.DATA);
            float at = top - 10 - 11;
            for (String l : file) {
                write(c.cs(), left, w, at, 8, GREY, false, l, Flow.SENTENCE);
                at -= 10.5f;
            }
            for (String l : message) {
                write(c.cs(), left, w, at - 1, 9, BLACK, false, l, Flow.ENGLISH);
                at -= 11.5f;
            }
            for (String l : meaning) {
                write(c.cs(), left, w, at - 1, 8.3f, GREY, false, l, Flow.SENTENCE);
                at -= 10.5f;
            }
            c.cs().setStrokingColor(0.85f, 0.85f, 0.85f);
            c.cs().setLineWidth(0.5f);
            c.cs().moveTo(LEFT, top - height + 2);
            c.cs().lineTo(LEFT + WIDTH, top - height + 2);
            c.cs().stroke();
        });
    }

    private void commands(Block.Commands block) {
        float size = 8.5f;
        float lead = 11.5f;
        float pad = 5;
        y -= 2;
        for (List<String> words : block.commands()) {
            List<String> lines = PdfCommands.lines(text, words, size, WIDTH - 2 * pad);
            float height = lines.size() * lead + 4;
            need(height + pad);
            float top = y;
            y -= height;
            place("Code", Optional.empty(), c -> {
                c.cs().setNonStrokingColor(0.95f, 0.95f, 0.95f);
                c.cs().addRect(LEFT, top - height, WIDTH, height);
                c.cs().fill();
                for (int i = 0; i < lines.size(); i++) {
                    write(c.cs(), LEFT + pad, WIDTH - 2 * pad, top - 2 - size - i * lead + 1, size, BLACK, false, lines.get(i), Flow.CODE);
                }
            });
        }
        y -= 8;
    }

    private void place(Block.Place p) {
        float height = WIDTH / 2;
        need(height + 30);
        float top = y;
        y -= height + 4;
        place("Figure", Optional.of(text.safe(p.alt())), c -> PdfMap.draw(c.cs(), p, LEFT, top - height, WIDTH, height));
        paragraph(new Block.Paragraph(x.get("report.place.caption", p.alt()), Block.Tone.NOTE));
    }

    private void pictures(List<Block.Picture> row) {
        float gap = 8;
        float maxWidth = row.size() == 1 ? 300 : (WIDTH - gap * (row.size() - 1)) / row.size();
        float[] w = new float[row.size()];
        float[] h = new float[row.size()];
        float tallest = 0;
        for (int i = 0; i < row.size(); i++) {
            Block.Picture p = row.get(i);
            float scale = Math.min(1f, Math.min(maxWidth / p.width(), 260f / p.height()));
            w[i] = p.width() * scale;
            h[i] = p.height() * scale;
            tallest = Math.max(tallest, h[i]);
        }
        need(tallest + 8);
        float top = y;
        y -= tallest + 8;
        float left = LEFT;
        for (int i = 0; i < row.size(); i++) {
            Block.Picture p = row.get(i);
            float at = mirror(left, w[i]);
            float width = w[i];
            float height = h[i];
            place("Figure", Optional.of(text.safe(p.alt())), c -> c.cs().drawImage(PdfReport.image(c.pdf(), p, c.images()), at, top - height, width, height));
            left += w[i] + gap;
        }
    }

    private void place(String tag, Optional<String> alt, Draw draw) {
        page.add(new Op(tag, alt, draw, Optional.empty(), Optional.empty()));
    }

    private void cell(Group row, String tag, Optional<String> scope, Draw draw) {
        page.add(new Op(tag, Optional.empty(), draw, Optional.of(row), scope));
    }

    private void need(float height) {
        if (y - height < BOTTOM) {
            newPageIfUsed();
        }
    }

    private void newPageIfUsed() {
        if (!page.isEmpty()) {
            newPage();
        }
    }

    private void newPage() {
        page = new ArrayList<>();
        pages.add(page);
        y = TOP;
    }

    /**
     * Draws one line of safe text in the box from {@code left}, {@code width} wide: against its left edge, or in
     * a right-to-left report against its right edge (a command excepted).
     */
    private void write(PDPageContentStream cs, float left, float width, float baseline, float size, float[] colour, boolean bold, String safe,
            Flow flow) throws IOException {
        String visual = switch (flow) {
            case SENTENCE -> text.visualSentence(safe);
            case ENGLISH -> PdfText.visual(safe, false);
            case DATA, CODE -> text.visual(safe);
        };
        float start = rtl && flow != Flow.CODE ? left + width - text.width(visual, size) : left;
        boolean reordered = !visual.equals(safe);
        if (reordered) {
            // Drawn shaped and in visual order; read (copied, searched, spoken) as written, in logical order.
            COSDictionary actual = new COSDictionary();
            actual.setString(COSName.getPDFName("ActualText"), safe);
            cs.beginMarkedContent(COSName.getPDFName("Span"), PDPropertyList.create(actual));
        }
        cs.beginText();
        cs.setNonStrokingColor(colour[0], colour[1], colour[2]);
        if (bold) {
            // One embedded face: bold is drawn as the regular outline filled and stroked.
            cs.setRenderingMode(RenderingMode.FILL_STROKE);
            cs.setStrokingColor(colour[0], colour[1], colour[2]);
            cs.setLineWidth(size * 0.035f);
        }
        cs.newLineAtOffset(start, baseline);
        for (PdfText.Run r : text.runs(visual)) {
            cs.setFont(r.font(), size);
            cs.showText(r.text());
        }
        if (bold) {
            cs.setRenderingMode(RenderingMode.FILL);
        }
        cs.endText();
        if (reordered) {
            cs.endMarkedContent();
        }
    }
}
