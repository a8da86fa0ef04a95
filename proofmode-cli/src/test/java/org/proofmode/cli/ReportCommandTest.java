// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Tamper;

/**
 * {@code proofmode report}: what a reader finds in the PDF (pdftotext), that every page renders (pdftoppm),
 * that every "Check it yourself" command succeeds with the real tools for an intact bundle and the ones of
 * a changed file fail, the same bytes twice, the report's own signature checked by gpg, and markup from the
 * sender kept as text in HTML.
 */
class ReportCommandTest {
    static final String DATE = "2026-03-14T09:00:00Z";

    @TempDir
    Path tmp;

    private Cli cli;
    private Path media;
    private Path zip;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        media = Files.createDirectories(tmp.resolve("in")).resolve("IMG_0001.jpg");
        Files.copy(OwnMedia.examplePhoto(), media);
        zip = proveAndExport(media, "share.zip");
    }

    private Path proveAndExport(Path file, String name) {
        Cli.Result p = cli.run("prove", "--location=48.8566,2.3522,12", "--notes", "seen from the bridge", file.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        Path out = tmp.resolve(name);
        Cli.Result e = cli.run("export", "--with-media", "-o", out.toString(), file.toString());
        assertThat(e.exit()).as(e.err()).isZero();
        return out;
    }

    private Path report(Path bundle, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("report", "--date", DATE, "-o", out.toString()));
        args.addAll(List.of(more));
        args.add(bundle.toString());
        Cli.Result r = cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(out.toString());
        return out;
    }

    private JsonNode verifyJson(Path bundle, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("verify", "--json"));
        args.addAll(List.of(more));
        args.add(bundle.toString());
        return new ObjectMapper().readTree(cli.run(args.toArray(String[]::new)).out());
    }

    /** The folder a skeptic works in: the unpacked bundle, the report and its signature, and the installation's key. */
    private Path workFolder(Path bundle, Path pdf, String name) throws Exception {
        Path dir = ReportTools.unpack(bundle, tmp.resolve(name));
        Files.copy(pdf, dir.resolve(pdf.getFileName()));
        Files.copy(pdf.resolveSibling(pdf.getFileName() + ".asc"), dir.resolve(pdf.getFileName() + ".asc"));
        Cli.Result k = cli.run("keys", "export", "-o", dir.resolve("KEY.asc").toString());
        assertThat(k.exit()).as(k.err()).isZero();
        return dir;
    }

    @Test
    void report_pdfTextHoldsVerdictHashesFingerprintAndEveryCheckCode_andEveryPageRenders() throws Exception {
        Path pdf = report(zip, tmp.resolve("share.report.pdf"));
        JsonNode json = verifyJson(zip);
        String text = ReportTools.pdftotext(pdf);
        assertThat(text).contains("Verdict: " + json.get("verdict").asText());
        assertThat(json.get("proofs")).isNotEmpty();
        List<String> codes = new ArrayList<>();
        json.get("checks").forEach(c -> codes.add(c.get("code").asText()));
        for (JsonNode p : json.get("proofs")) {
            assertThat(text).contains(p.get("sha256").asText(), p.get("signer").get("fingerprint").asText());
            p.get("checks").forEach(c -> codes.add(c.get("code").asText()));
        }
        assertThat(codes).contains("media.hash.match", "signature.media.valid");
        for (String code : codes) {
            assertThat(text).as("check code in the report").contains(code);
        }
        assertThat(text).contains("Check it yourself", "Certification", "seen from the bridge", "Map of the recorded place");
        assertThat(Files.readString(pdf, StandardCharsets.ISO_8859_1)).startsWith("%PDF-").contains("pdfaid:part", "/StructTreeRoot", "/MarkInfo", "/OutputIntents");
        ReportTools.pdftoppm(pdf, tmp.resolve("pages"));
        assertThat(ReportTools.structure(pdf)).startsWith("Document").contains("H1", "H2", "Figure", "Code", "P (block)", "Table (block)",
                "    TR\n", "      TH:\n         /Scope /Row\n", "/Scope /Column", "      TD\n");
        assertThat(ReportTools.veraPdf(pdf, "2b")).as("veraPDF, PDF/A-2b").isEmpty();
        // PDF/UA-1: every rule veraPDF checks by machine holds (tags, tables, alternative text, fonts) but the
        // identification, which the report does not claim.
        assertThat(ReportTools.veraPdf(pdf, "ua1")).singleElement().asString().startsWith("5-1 The PDF/UA version and conformance level");
    }

    @Test
    void report_everyCommandSucceeds_forAnIntactBundle() throws Exception {
        Path pdf = report(zip, tmp.resolve("share.report.pdf"));
        List<String> commands = ReportTools.commands(ReportTools.pdftotext(pdf));
        assertThat(commands).anyMatch(c -> c.contains("sha256sum -c")).anyMatch(c -> c.startsWith("gpg --batch --verify"))
                .anyMatch(c -> c.startsWith("sqv ")).anyMatch(c -> c.contains("share.report.pdf.asc"));
        List<ReportTools.Ran> ran = ReportTools.run(commands, workFolder(zip, pdf, "work"), tmp.resolve("t"));
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        assertThat(String.join("\n", ran.stream().map(ReportTools.Ran::output).toList())).contains("IMG_0001.jpg: OK", "Good signature");
    }

    @Test
    void report_commandsOfTheChangedMediaFail_andOnlyThey() throws Exception {
        Map<String, byte[]> entries = Tamper.readZip(zip);
        byte[] jpeg = entries.get("IMG_0001.jpg").clone();
        jpeg[jpeg.length / 2] ^= 0x01;
        Path bad = tmp.resolve("bad.zip");
        Tamper.replaceEntry(zip, bad, "IMG_0001.jpg", jpeg);
        Path pdf = report(bad, tmp.resolve("bad.report.pdf"));
        String text = ReportTools.pdftotext(pdf);
        assertThat(text).contains("Verdict: INVALID", "media.hash.mismatch");
        List<ReportTools.Ran> ran = ReportTools.run(ReportTools.commands(text), workFolder(bad, pdf, "work"), tmp.resolve("t"));
        List<ReportTools.Ran> failed = ran.stream().filter(r -> r.exit() != 0).toList();
        assertThat(failed).extracting(ReportTools.Ran::command).hasSize(3).allMatch(c -> c.contains("IMG_0001.jpg"));
        assertThat(ran.stream().filter(r -> r.exit() == 0)).noneMatch(r -> r.command().contains("IMG_0001.jpg"));
    }

    @Test
    void report_sameBytesTwice_andItsSignatureVerifiesWithGpg() throws Exception {
        for (String format : List.of("pdf", "html")) {
            Path a = report(zip, Files.createDirectories(tmp.resolve("a-" + format)).resolve("r." + format), "--format", format);
            Path b = report(zip, Files.createDirectories(tmp.resolve("b-" + format)).resolve("r." + format), "--format", format);
            assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
            Path sig = a.resolveSibling("r." + format + ".asc");
            assertThat(Files.readAllBytes(sig)).isEqualTo(Files.readAllBytes(b.resolveSibling("r." + format + ".asc")));
            Path key = tmp.resolve("key-" + format + ".asc");
            assertThat(cli.run("keys", "export", "-o", key.toString()).exit()).isZero();
            try (Gpg gpg = Gpg.create(tmp)) {
                gpg.importKey(key);
                ProcessResult good = gpg.verify(sig, a);
                assertThat(good.succeeded()).as(good.describe()).isTrue();
                Path changed = Files.write(tmp.resolve("changed." + format), Files.readAllBytes(a));
                Files.writeString(changed, " ", java.nio.file.StandardOpenOption.APPEND);
                assertThat(gpg.verify(sig, changed).succeeded()).isFalse();
            }
        }
        Path other = Files.createDirectories(tmp.resolve("c")).resolve("r.pdf");
        assertThat(cli.run("report", "--date", "2026-03-15T09:00:00Z", "-o", other.toString(), zip.toString()).exit()).isZero();
        assertThat(Files.readAllBytes(other)).isNotEqualTo(Files.readAllBytes(tmp.resolve("a-pdf/r.pdf")));
    }

    @Test
    void report_keepsWhatTheSenderWroteAsText_inHtmlAndInCommands() throws Exception {
        Path hostile = tmp.resolve("in").resolve("<script>alert(1)<script> it's $(touch PWNED).jpg");
        Files.copy(media, hostile, StandardCopyOption.REPLACE_EXISTING);
        Files.write(hostile, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
        Cli.Result p = cli.run("prove", "--notes", "<img src=x onerror=alert(2)>\u202eevil", hostile.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        Path bundle = tmp.resolve("hostile.zip");
        assertThat(cli.run("export", "--with-media", "-o", bundle.toString(), hostile.toString()).exit()).isZero();

        String html = Files.readString(report(bundle, tmp.resolve("hostile.html"), "--format", "html"));
        assertThat(html).doesNotContain("<script", "<img src=x", "\u202e").contains("&lt;script&gt;alert(1)&lt;script&gt; it&#39;s $(touch PWNED).jpg",
                "&lt;img src=x onerror=alert(2)&gt;\\u202eevil");
        assertThat(html).contains("Content-Security-Policy").contains("default-src 'none'");

        Path pdf = report(bundle, tmp.resolve("hostile.pdf"));
        String text = ReportTools.pdftotext(pdf);
        assertThat(text).contains("<img src=x onerror=alert(2)>\\u202eevil").doesNotContain("\u202e");
        Path dir = workFolder(bundle, pdf, "work");
        List<ReportTools.Ran> ran = ReportTools.run(ReportTools.commands(text), dir, tmp.resolve("t"));
        assertThat(ran).anyMatch(r -> r.command().contains("sha256sum"));
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        assertThat(dir.resolve("PWNED")).doesNotExist();
        assertThat(tmp.resolve("PWNED")).doesNotExist();
    }

    @Test
    void report_ofAProvedMediaFile_reportsItsStoredProof_asVerifyFindsIt() throws Exception {
        Path pdf = report(media, tmp.resolve("media.report.pdf"));
        String text = ReportTools.pdftotext(pdf).replace("\n", " ");
        assertThat(text).contains("Verdict: TRUSTED", Digests.sha256(media), "media.hash.match", "seen from the bridge");
        assertThat(ReportTools.veraPdf(pdf, "2b")).as("veraPDF, PDF/A-2b").isEmpty();
    }

    @Test
    void report_namesTheMediaAsTyped_notWhereThisMachineKeepsIt_forARelativePath() throws Exception {
        Path out = tmp.resolve("typed.pdf");
        Cli.Result r = cli.cwd(tmp.resolve("in")).run("report", "--no-sign", "--date", DATE, "-o", out.toString(), "IMG_0001.jpg");
        assertThat(r.exit()).as(r.err()).isZero();
        String text = ReportTools.pdftotext(out);
        assertThat(text).contains("Proof of IMG_0001.jpg").doesNotContain(tmp.toString()).doesNotContain(tmp.getFileName().toString());
    }

    @Test
    void report_isDatedAndSignedWhenMade_andSaysTheInstallationsOwnKeyIsNotIndependent() throws Exception {
        java.time.Instant before = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Path out = tmp.resolve("now.pdf");
        Cli.Result r = cli.run("report", "-o", out.toString(), zip.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        java.time.Instant after = java.time.Instant.now();
        String text = ReportTools.pdftotext(out);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Date of the report\\s+(\\S+)").matcher(text);
        assertThat(m.find()).as(text).isTrue();
        assertThat(java.time.Instant.parse(m.group(1))).isBetween(before, after);
        try (Gpg gpg = Gpg.create(tmp)) {
            ProcessResult packets = gpg.run("--list-packets", out.resolveSibling("now.pdf.asc").toString());
            java.util.regex.Matcher created = java.util.regex.Pattern.compile("created (\\d+)").matcher(packets.stdout());
            assertThat(created.find()).as(packets.describe()).isTrue();
            assertThat(java.time.Instant.ofEpochSecond(Long.parseLong(created.group(1)))).isBetween(before, after);
        }
        assertThat(text.replace("\n", " ")).contains("Verdict: TRUSTED (signed by this installation's own key: not independent)",
                "Signed by this installation's own key: not independent");
        // Another installation that trusts the key says TRUSTED with no such words.
        Path key = tmp.resolve("key.asc");
        assertThat(cli.run("keys", "export", "-o", key.toString()).exit()).isZero();
        Cli other = new Cli(tmp.resolve("desk-home"));
        Path desk = tmp.resolve("desk.pdf");
        assertThat(other.run("report", "--no-sign", "--trust", key.toString(), "-o", desk.toString(), zip.toString()).exit()).isZero();
        assertThat(ReportTools.pdftotext(desk)).contains("Verdict: TRUSTED").doesNotContain("own key");
    }

    @Test
    void report_ofNamesAndNotesInChineseJapaneseArabicAndEmoji_isMade_readBack_andItsCommandsWork() throws Exception {
        Path photo = tmp.resolve("in").resolve("写真 📷.jpg");
        Files.copy(OwnMedia.examplePhoto(), photo);
        Files.write(photo, new byte[] {2}, java.nio.file.StandardOpenOption.APPEND);
        String notes = "شاهدت الحريق من الجسر، ひらがなとカタカナ 🔥";
        Cli.Result p = cli.run("prove", "--notes", notes, photo.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        Path bundle = tmp.resolve("写真.zip");
        assertThat(cli.run("export", "--with-media", "-o", bundle.toString(), photo.toString()).exit()).isZero();
        Path pdf = report(bundle, tmp.resolve("写真 📷.report.pdf"));
        String text = ReportTools.pdftotext(pdf);
        // Arabic is drawn shaped: its presentation forms read as their letters (NFKC), as a reader's search does
        assertThat(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC))
                .contains("写真 📷.jpg", "ひらがなとカタカナ", "🔥", "الحريق", "Verdict: TRUSTED");
        assertThat(text).doesNotContainPattern("\\[U\\+[0-9A-F]{4,6}\\]");
        assertThat(ReportTools.veraPdf(pdf, "2b")).as("veraPDF, PDF/A-2b").isEmpty();
        ReportTools.pdftoppm(pdf, tmp.resolve("pages"));
        Path dir = workFolder(bundle, pdf, "work");
        Files.move(dir.resolve(pdf.getFileName()), dir.resolve("REPORT.pdf"));
        Files.move(dir.resolve(pdf.getFileName() + ".asc"), dir.resolve("REPORT.pdf.asc"));
        List<ReportTools.Ran> ran = ReportTools.run(ReportTools.commands(text), dir, tmp.resolve("t"));
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        String all = String.join("\n", ran.stream().map(ReportTools.Ran::output).toList());
        assertThat(all).contains("media-" + Digests.sha256(photo).substring(0, 12) + ".jpg: OK", "Good signature");

        String html = Files.readString(report(bundle, tmp.resolve("写真.html"), "--format", "html"));
        assertThat(html).contains("写真 📷.jpg", "ひらがなとカタカナ", "🔥", "الحريق");
    }

    @Test
    void report_commandsDoOnlyWhatTheySay_forANameOfLookAlikeQuotes() throws Exception {
        Path hostile = tmp.resolve("in").resolve("x\u02bc; touch PWNED; echo \u02bc.jpg");
        Files.copy(OwnMedia.examplePhoto(), hostile);
        Files.write(hostile, new byte[] {3}, java.nio.file.StandardOpenOption.APPEND);
        assertThat(cli.run("prove", hostile.toString()).exit()).isZero();
        Path bundle = tmp.resolve("quotes.zip");
        assertThat(cli.run("export", "--with-media", "-o", bundle.toString(), hostile.toString()).exit()).isZero();
        Path pdf = report(bundle, tmp.resolve("quotes.pdf"));
        String text = ReportTools.pdftotext(pdf);
        List<String> commands = ReportTools.commands(text);
        assertThat(commands).allMatch(c -> c.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f)).noneMatch(c -> c.contains("PWNED"));
        assertThat(text).contains("U+02BC");
        Path dir = workFolder(bundle, pdf, "work");
        List<ReportTools.Ran> ran = ReportTools.run(commands, dir, tmp.resolve("t"));
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        assertThat(String.join("\n", ran.stream().map(ReportTools.Ran::output).toList())).contains(": OK", "Good signature");
        assertThat(dir.resolve("PWNED")).doesNotExist();
    }

    @Test
    void report_ofACase_holdsEachItem() throws Exception {
        Path second = tmp.resolve("in").resolve("IMG_0002.png");
        OwnMedia.png(second, 64, 48, 7);
        Path zip2 = proveAndExport(second, "second.zip");
        Cli.Result r = cli.run("report", "--case", "Market fire", "--date", DATE, "-o", tmp.resolve("case.pdf").toString(),
                zip.toString(), zip2.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        String text = ReportTools.pdftotext(tmp.resolve("case.pdf"));
        assertThat(text).contains("Verification report: Market fire", "Item 1: share.zip", "Item 2: second.zip",
                Digests.sha256(media), Digests.sha256(second));
        assertThat(ReportTools.veraPdf(tmp.resolve("case.pdf"), "2b")).as("veraPDF, PDF/A-2b").isEmpty();
    }

    @Test
    void report_exitCodes() throws Exception {
        Path out = Files.writeString(tmp.resolve("taken.pdf"), "keep me");
        assertThat(cli.run("report", "-o", out.toString(), zip.toString()).exit()).isEqualTo(59);
        assertThat(Files.readString(out)).isEqualTo("keep me");
        assertThat(cli.run("report", "--date", "yesterday", zip.toString()).exit()).isEqualTo(37);
        assertThat(cli.run("report", "--format", "docx", zip.toString()).exit()).isEqualTo(37);
        assertThat(cli.run("report", zip.toString(), zip.toString()).exit()).isEqualTo(83);
        assertThat(cli.run("report", tmp.resolve("nothing.zip").toString()).exit()).isEqualTo(61);
        Path unproved = Files.write(tmp.resolve("in").resolve("unproved.jpg"), Files.readAllBytes(media));
        Files.write(unproved, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);
        Cli.Result mediaFile = cli.run("report", "-o", tmp.resolve("u.pdf").toString(), unproved.toString());
        assertThat(mediaFile.exit()).isEqualTo(61);
        assertThat(mediaFile.err()).contains("no proof of this file");
        assertThat(tmp.resolve("u.pdf")).doesNotExist();

        Cli.Result nobody = new Cli(tmp.resolve("fresh-home")).run("report", "-o", tmp.resolve("n.pdf").toString(), zip.toString());
        assertThat(nobody.exit()).isEqualTo(61);
        assertThat(nobody.err()).contains("--no-sign");
        assertThat(tmp.resolve("n.pdf")).doesNotExist();
        Cli.Result unsigned = new Cli(tmp.resolve("fresh-home")).run("report", "--no-sign", "-o", tmp.resolve("n.pdf").toString(), zip.toString());
        assertThat(unsigned.exit()).as(unsigned.err()).isZero();
        assertThat(tmp.resolve("n.pdf")).exists();
        assertThat(tmp.resolve("n.pdf.asc")).doesNotExist();
        assertThat(ReportTools.pdftotext(tmp.resolve("n.pdf"))).contains("Verdict: VALID", "not signed");
    }
}
