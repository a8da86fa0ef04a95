// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.OwnMedia;

/**
 * {@code proofmode report --lang}: the report's own sentences in the reader's script, read back by pdftotext
 * (right to left in logical order, no missing-glyph boxes), every page rendered by pdftoppm, PDF/A-2b by
 * veraPDF; hashes, check codes and the commands unchanged.
 */
class ReportLanguagesTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path zip;
    private String sha256;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase").env("LANG", "C.UTF-8");
        Path media = Files.copy(OwnMedia.examplePhoto(), Files.createDirectories(tmp.resolve("in")).resolve("IMG_0001.jpg"));
        sha256 = Digests.sha256(media);
        assertThat(cli.run("prove", "--notes", "seen from the bridge", media.toString()).exit()).isZero();
        zip = tmp.resolve("share.zip");
        assertThat(cli.run("export", "--lang", "en", "-o", zip.toString(), media.toString()).exit()).isZero();
    }

    private String report(String lang, String... expected) throws Exception {
        Path pdf = tmp.resolve("share." + lang + ".pdf");
        Cli.Result r = cli.run("report", "--lang", lang, "--date", ReportCommandTest.DATE, "-o", pdf.toString(), zip.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        // Arabic is drawn shaped: its presentation forms read as their letters (NFKC), as a reader's search does
        String text = Normalizer.normalize(ReportTools.pdftotext(pdf), Normalizer.Form.NFKC);
        assertThat(text).contains(expected).contains(sha256, "media.hash.match", "sha256sum", "seen from the bridge")
                .doesNotContainPattern("\\[U\\+[0-9A-F]{4,6}\\]").doesNotContain("Verification report", "Check it yourself")
                // no English sentence left: the check meanings, the plain names, the self-check notes
                .doesNotContain("not one byte has changed", "is signed by the signer's key", "Anyone can redo these checks",
                        "Pixel hash of the image", "What it found", "The same inputs and the same report date");
        assertThat(Files.readString(pdf, StandardCharsets.ISO_8859_1)).contains("/Lang (" + lang + ")");
        assertThat(ReportTools.pdftoppm(pdf, tmp.resolve(lang + "-pages"))).isNotEmpty();
        assertThat(ReportTools.veraPdf(pdf, "2b")).as("veraPDF, PDF/A-2b").isEmpty();
        return text;
    }

    @Test
    void report_inArabic_readsBackInLogicalOrder_rightToLeftScript() throws Exception {
        String text = report("ar", "تقرير التحقق", "تحقق بنفسك", "الشهادة", "بصمة مفتاح الموقع", "بصمة ملف الوسائط", "السطر الأول ينشئ حلقة مفاتيح");
        assertThat(text).doesNotContain("قيقحتلا ريرقت");
        // drawn joined: the letters of the title in their initial, medial and final forms, not the isolated ones
        assertThat(ReportTools.pdftotext(tmp.resolve("share.ar.pdf"))).contains("\uFE97\uFED8\uFEAE\uFEF3\uFEAE");
    }

    @Test
    void report_inSimplifiedChinese_drawsEveryCharacter_cjkScript() throws Exception {
        report("zh-Hans", "核验报告", "自行核验", "证明书", "签名者密钥指纹", ReportCommandTest.DATE + " (2026年3月14日", "媒体文件的指纹",
                "第一行仅为本次检查创建一个新的空密钥环");
    }

    @Test
    void report_inSpanishFrenchAndUkrainian_readsTheCheckMeaningsInTheLanguage() throws Exception {
        report("es", "La huella digital (SHA-256) del archivo multimedia es la que registró la prueba", "Comprobación: su código");
        report("fr", "L’empreinte (SHA-256) du fichier média est celle que la preuve a enregistrée", "Vérification : son code");
        report("uk", "Відбиток (SHA-256) медіафайлу — саме той, що записано в доказі", "Перевірка: її код");
        // the picture's text alternative, which a screen reader reads, in the language too
        Path html = tmp.resolve("share.fr.html");
        Cli.Result r = cli.run("report", "--format", "html", "--lang", "fr", "--date", ReportCommandTest.DATE, "-o", html.toString(), zip.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(html)).contains("alt=\"Le média de cette preuve, IMG_0001.jpg, réduit à ").doesNotContain("The media of this proof");
    }

    @Test
    void report_inTheLocalesLanguage_withoutLang_andFailsOnAnUnknownOne() throws Exception {
        Path pdf = tmp.resolve("uk.pdf");
        Cli.Result r = cli.env("LANG", "uk_UA.UTF-8").run("report", "--date", ReportCommandTest.DATE, "-o", pdf.toString(), zip.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(ReportTools.pdftotext(pdf)).contains("Звіт про перевірку", "Перевірте самі");
        Cli.Result bad = cli.run("report", "--lang", "xx", "-o", tmp.resolve("xx.pdf").toString(), zip.toString());
        assertThat(bad.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(tmp.resolve("xx.pdf")).doesNotExist();
    }
}
