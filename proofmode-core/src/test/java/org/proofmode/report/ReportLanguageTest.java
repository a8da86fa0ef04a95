// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.proof.ContextFields;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.ContextSummary;
import org.proofmode.verify.Meanings;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;

/** A report in the reader's language: its own sentences translated, the page's language and direction set, the rest unchanged. */
class ReportLanguageTest {
    @TempDir
    Path tmp;

    /** A report whose checks include a time stamp, so that its time is shown too. */
    private static ReportDocument stamped(Language language) {
        ReportItem item = ReportFixtures.item("IMG_0001.jpg", "the media".getBytes(java.nio.charset.StandardCharsets.UTF_8), "seen from the bridge",
                Verdict.TRUSTED, List.of(new Check(CheckCodes.MEDIA_HASH_MATCH, Status.PASS, "IMG_0001.jpg", "sha256 matches"),
                        new Check(CheckCodes.TIMESTAMP_RFC3161_VALID, Status.PASS, "IMG_0001.jpg.asc.tsr", "stamped 2026-03-14T08:05:00Z by Test TSA")));
        return ReportBuilder.build(List.of(item), Optional.empty(), ReportFixtures.certification(), Optional.of("r.pdf"), Set.of(), language);
    }

    /** The report's text as pdftotext reads it, Arabic presentation forms as their letters (NFKC), lines joined by spaces. */
    private String pdftotext(ReportDocument doc) throws Exception {
        // pdftotext marks right-to-left runs with embedding controls: left out, as a reader's search does
        return Normalizer.normalize(ReportFixtures.pdftotext(tmp, PdfReport.render(doc)), Normalizer.Form.NFKC)
                .replaceAll("[\u200E\u200F\u202A-\u202E\u2066-\u2069]", "").replaceAll("\\s+", " ");
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void pdf_readsTheMeaningsAndSelfCheckInTheLanguage_noEnglishSentenceLeft(Language language) throws Exception {
        String text = pdftotext(stamped(language));
        ReportMeanings m = ReportMeanings.of(language);
        Texts x = Texts.of(language);
        for (String code : List.of(CheckCodes.MEDIA_HASH_MATCH, CheckCodes.TIMESTAMP_RFC3161_VALID, CheckCodes.signature("media", "valid"))) {
            assertThat(text).as("%s in %s", code, language).contains(start(m.of(code))).doesNotContain(start(Meanings.of(code)));
        }
        assertThat(text).contains(start(x.get("selfcheck.gpg.explain")), start(x.get("plain.pixelHash")), start(x.get("report.col.check")))
                .doesNotContain("Anyone can redo these checks", "computes the media file", "Pixel hash of the image", "The same inputs",
                        "What it found", "Check: its code", "File: ", "page 1 of")
                // hashes, codes and commands as they are; every time with its long form beside it
                .contains(ReportFixtures.sha256("the media".getBytes(java.nio.charset.StandardCharsets.UTF_8)), "media.hash.match", "sha256sum -c",
                        "2026-03-14T08:00:00Z", "2026-03-14T08:05:00Z", "2026-03-14T09:00:00Z", "Test TSA");
        // the proof's time, the time stamp's and the report's date, each with its long form beside it (pdftotext
        // moves the brackets of a right-to-left line: there, the month's names are counted)
        if (language == Language.AR) {
            assertThat(text.split("مارس", -1)).as("dates in their long form").hasSizeGreaterThanOrEqualTo(5);
        } else {
            assertThat(text).contains("2026-03-14T08:00:00Z (", "2026-03-14T08:05:00Z (", "2026-03-14T09:00:00Z (");
        }
    }

    @Test
    void pdf_arabic_isMirrored_linesAgainstTheRightMargin_hashesLeftToRight() throws Exception {
        String sha = ReportFixtures.sha256("the media".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        List<Line> arabic = lines(PdfReport.render(stamped(Language.AR)));
        float right = PdfLayout.LEFT + PdfLayout.WIDTH;
        List<Line> written = arabic.stream().filter(l -> l.text().codePoints().anyMatch(c -> Character.UnicodeBlock.of(c).toString().startsWith("ARABIC"))).toList();
        assertThat(written).hasSizeGreaterThan(30);
        // each ends at the right edge of its box: the text's (the right margin), a verdict's box (inside its bar on
        // the right), a check's column (the status on the right), or a value's column (its label on the right)
        List<Float> edges = List.of(right, right - 13, right - 40, PdfLayout.LEFT + PdfLayout.VALUE_WIDTH);
        assertThat(written).as("Arabic lines set against the right edge of their box")
                .allMatch(l -> edges.stream().anyMatch(e -> Math.abs(l.right() - e) < 1.5f));
        assertThat(written.stream().filter(l -> Math.abs(l.right() - right) < 1.5f).count()).isGreaterThan(20);
        assertThat(written.get(0).left()).as("the title starts right, not at the left margin").isGreaterThan(PdfLayout.LEFT + 100);
        // a hash is drawn left to right, unchanged, in the value column on the left (its label on the right)
        assertThat(arabic).anyMatch(l -> l.text().startsWith(sha) && l.left() < PdfLayout.LEFT + 40 && l.right() > right - 1.5f);
        // a command stays against the left edge of its box, left to right
        assertThat(arabic).anyMatch(l -> l.text().startsWith("$ echo") && l.left() < PdfLayout.LEFT + 10);
        // in English the same lines start at the left margin
        List<Line> english = lines(PdfReport.render(stamped(Language.EN)));
        assertThat(english.get(0).left()).isBetween(PdfLayout.LEFT - 0.5f, PdfLayout.LEFT + 1f);
    }

    /** A line of a page as drawn: its glyphs left to right, and where it starts and ends. */
    record Line(int page, float y, String text, float left, float right) {}

    /** Every line of a PDF, glyphs grouped by page and baseline, in drawing order left to right. */
    private static List<Line> lines(byte[] pdf) throws IOException {
        List<Line> out = new ArrayList<>();
        try (PDDocument doc = Loader.loadPDF(pdf)) {
            for (int page = 1; page <= doc.getNumberOfPages(); page++) {
                TreeMap<Float, List<TextPosition>> rows = new TreeMap<>();
                PDFTextStripper stripper = new PDFTextStripper() {
                    @Override
                    protected void processTextPosition(TextPosition t) {
                        rows.computeIfAbsent((float) Math.round(t.getYDirAdj()), k -> new ArrayList<>()).add(t);
                    }
                };
                stripper.setStartPage(page);
                stripper.setEndPage(page);
                stripper.getText(doc);
                for (var row : rows.entrySet()) {
                    List<TextPosition> glyphs = new ArrayList<>(row.getValue());
                    glyphs.sort((a, b) -> Float.compare(a.getXDirAdj(), b.getXDirAdj()));
                    StringBuilder text = new StringBuilder();
                    glyphs.forEach(g -> text.append(g.getUnicode()));
                    TextPosition last = glyphs.get(glyphs.size() - 1);
                    out.add(new Line(page, row.getKey(), text.toString().strip(), glyphs.get(0).getXDirAdj(), last.getXDirAdj() + last.getWidthDirAdj()));
                }
            }
        }
        return out;
    }

    /**
     * The first words of a sentence (NFKC) up to its first character that is not a letter, a space or an
     * apostrophe, at most 20 characters: enough to find it, and no bracket or colon that a right-to-left
     * run would move.
     */
    private static String start(String sentence) {
        String s = Normalizer.normalize(sentence, Normalizer.Form.NFKC);
        int end = 0;
        while (end < Math.min(s.length(), 20) && (Character.isLetter(s.charAt(end)) || " '’".indexOf(s.charAt(end)) >= 0)) {
            end++;
        }
        String start = s.substring(0, end).strip();
        assertThat(start).as("the start of %s", sentence).hasSizeGreaterThanOrEqualTo(2);
        return start;
    }
    private static ReportDocument doc(Language language) {
        return ReportBuilder.build(List.of(ReportFixtures.item("IMG_0001.jpg", "note")), Optional.empty(), ReportFixtures.certification(),
                Optional.of("r.pdf"), Set.of(), language);
    }

    @Test
    void html_setsLangAndDir_rightToLeftForArabic() {
        assertThat(HtmlReport.render(doc(Language.AR))).contains("<html lang=\"ar\" dir=\"rtl\">", "تقرير التحقق: IMG_0001.jpg", "الحكم");
        assertThat(HtmlReport.render(doc(Language.ZH_HANS))).contains("<html lang=\"zh-Hans\" dir=\"ltr\">", "核验报告：IMG_0001.jpg");
        assertThat(HtmlReport.render(doc(Language.EN))).contains("<html lang=\"en\" dir=\"ltr\">", "Verification report: IMG_0001.jpg");
    }

    @Test
    void html_arabic_isMirroredByLogicalCss_commandsAndDataLeftToRight_meaningsTranslated() {
        String html = HtmlReport.render(stamped(Language.AR));
        assertThat(html).contains("<html lang=\"ar\" dir=\"rtl\">", "text-align:start", "border-inline-start", "<pre class=\"commands\" dir=\"ltr\">",
                "<bdi>device &lt;d@example.org&gt;</bdi>", HtmlReport.esc(ReportMeanings.of(Language.AR).of(CheckCodes.MEDIA_HASH_MATCH)),
                "<th scope=\"col\">النتيجة</th>", "الملف: IMG_0001.jpg", "2026-03-14T08:05:00Z (14 مارس 2026",
                "<bdi dir=\"ltr\" lang=\"en\">sha256 matches</bdi>")
                .doesNotContain("text-align:left;vertical", "border-left", HtmlReport.esc(Meanings.of(CheckCodes.MEDIA_HASH_MATCH)), ">Result<", "File: ");
        assertThat(HtmlReport.render(stamped(Language.EN))).contains(HtmlReport.esc(Meanings.of(CheckCodes.MEDIA_HASH_MATCH)), ">Result<", "File: IMG_0001.jpg",
                "<td>device &lt;d@example.org&gt;</td>");
    }

    @Test
    void build_givesEveryTimeItsLongForm_custodyLinesToo() {
        ReportItem item = ReportFixtures.item("IMG_0001.jpg", "note").withCustody(List.of(new CustodyLine("2026-03-14T10:00:00Z", "INTAKE",
                "desk (1)", Optional.of("TRUSTED"), "verified at 2026-03-14T10:00:01Z", "ab".repeat(32))));
        ReportDocument fr = ReportBuilder.build(List.of(item), Optional.empty(), ReportFixtures.certification(), Optional.empty(), Set.of(), Language.FR);
        List<Block.Field> fields = fr.blocks().stream().filter(b -> b instanceof Block.Fields).flatMap(b -> ((Block.Fields) b).rows().stream()).toList();
        assertThat(fields).anyMatch(f -> f.label().startsWith("2026-03-14T10:00:00Z (14 mars 2026") && f.value().startsWith("INTAKE par desk (1) (TRUSTED)")
                && f.value().contains("verified at 2026-03-14T10:00:01Z (14 mars 2026"));
        assertThat(fields).anyMatch(f -> f.label().equals("empreinte de sa ligne") && f.value().equals("ab".repeat(32)));
        // every ISO 8601 time the report shows has its long form beside it
        fields.forEach(f -> assertThat(f.label() + " " + f.value()).as("a time without its long form")
                .doesNotContainPattern("\\d{2}:\\d{2}:\\d{2}Z(?! \\()"));
    }

    @Test
    void build_keepsTheEnglishReportsId_andGivesAnotherLanguageItsOwn() {
        assertThat(doc(Language.EN).id()).isEqualTo(ReportBuilder.build(List.of(ReportFixtures.item("IMG_0001.jpg", "note")), Optional.empty(),
                ReportFixtures.certification(), Optional.of("r.pdf")).id());
        assertThat(doc(Language.UK).id()).isNotEqualTo(doc(Language.EN).id());
    }

    @Test
    void visual_joinsArabicLetters_andReadsAnArabicLineRightToLeft_inARightToLeftDocument() {
        // "تقرير: IMG" drawn left to right: the name first, then the colon, then the word, its letters joined
        assertThat(PdfText.visual("تقرير: IMG", true)).isEqualTo("IMG :\uFEAE\uFEF3\uFEAE\uFED8\uFE97");
        assertThat(PdfText.visual("Report: تقرير", false)).isEqualTo("Report: \uFEAE\uFEF3\uFEAE\uFED8\uFE97");
    }

    @Test
    void build_writesTheContextsWordsInTheLanguage_englishWordsAsTheSummaryHasThem() {
        Map<String, String> record = Map.of(ContextFields.DEVICE_CLOCK_SOURCE, "timedated", ContextFields.DEVICE_CLOCK_LAST_SYNC,
                "2026-03-14T07:00:00Z", ContextFields.ENVIRONMENT_VIRTUAL_MACHINE, "kvm", ContextFields.EXIF_DATE_TIME_ORIGINAL,
                "2026:03:14 09:00:00");
        ContextSummary.WORDS.forEach((k, v) -> assertThat(Texts.of(Language.EN).get("context." + k)).as(k).isEqualTo(v));
        Texts uk = Texts.of(Language.UK);
        Map<String, String> s = ContextSummary.of(record, w -> uk.get("context." + w));
        assertThat(s.get("clock")).startsWith("джерело timedated, остання синхронізація 2026-03-14T07:00:00Z");
        assertThat(s.get("environment")).isEqualTo("віртуальна машина kvm");
        assertThat(s.get("captureTime")).contains("місцевий час").doesNotContain("local time");
        assertThat(ContextSummary.of(record).get("clock")).isEqualTo("from timedated, last sync 2026-03-14T07:00:00Z");
    }

    @Test
    void build_chinese_writesTheVerdictWithChinesePunctuation_englishAsBefore() {
        String zh = first(stamped(Language.ZH_HANS));
        assertThat(zh).startsWith("结论：TRUSTED。").doesNotContain(": ", ". ");
        assertThat(first(stamped(Language.EN))).startsWith("Verdict: TRUSTED. ");
        ReportItem failed = ReportFixtures.item("IMG_0001.jpg", "the media".getBytes(java.nio.charset.StandardCharsets.UTF_8), "note", Verdict.INVALID,
                List.of(new Check(CheckCodes.MEDIA_HASH_MISMATCH, Status.FAIL, "IMG_0001.jpg", "changed")));
        String listed = ReportBuilder.build(List.of(failed), Optional.empty(), ReportFixtures.certification(), Optional.of("r.pdf"), Set.of(),
                Language.ZH_HANS).blocks().stream().filter(b -> b instanceof Block.Paragraph).map(b -> ((Block.Paragraph) b).text()).toList().get(1);
        assertThat(listed).contains("（media.hash.mismatch，IMG_0001.jpg）。").doesNotContain(" (");
    }

    /** The report's first paragraph: the overall verdict. */
    private static String first(ReportDocument doc) {
        return doc.blocks().stream().filter(b -> b instanceof Block.Paragraph).map(b -> ((Block.Paragraph) b).text()).findFirst().orElseThrow();
    }

    @Test
    void pdf_arabic_drawsACheckMessageLeftToRight_evenWhenItStartsWithAnArabicName() throws Exception {
        String name = "\u0627\u0644\u062d\u0631\u064a\u0642.jpg"; // "the fire"
        ReportItem item = ReportFixtures.item("IMG_0001.jpg", "the media".getBytes(java.nio.charset.StandardCharsets.UTF_8), "note", Verdict.VALID,
                List.of(new Check(CheckCodes.MEDIA_HASH_MATCH, Status.PASS, "IMG_0001.jpg", name + " names media hash abc")));
        ReportDocument doc = ReportBuilder.build(List.of(item), Optional.empty(), ReportFixtures.certification(), Optional.of("r.pdf"), Set.of(),
                Language.AR);
        Line line = lines(PdfReport.render(doc)).stream().filter(l -> l.text().contains("names media hash abc")).findFirst().orElseThrow();
        String text = Normalizer.normalize(line.text(), Normalizer.Form.NFKC);
        // drawn left to right: the name (its letters right to left inside it) first on the left, then the English words
        assertThat(text).as(text).matches("(?s)[\\u0600-\\u06FF]+.*names media hash abc.*");
    }
}
