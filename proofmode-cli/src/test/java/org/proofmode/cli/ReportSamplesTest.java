// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.CalendarStub;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.OpensslTsa;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Tamper;

/**
 * Reports of the ProofMode app's own bundles and of a proof with an RFC 3161 time stamp: the text holds the
 * verdict and every check code of {@code verify --json}, every page renders, and the commands run with the
 * real tools give the verifier's answer ({@code sqv} refuses the app's SHA-1-bound key, as the report warns;
 * the OpenTimestamps client runs offline, so a proof that reaches a Bitcoin block fails at the block, after
 * the file check, as the report says).
 */
class ReportSamplesTest {
    @TempDir
    static Path shared;

    private static OpensslTsa tsa;

    @TempDir
    Path tmp;

    private Cli cli;

    @BeforeAll
    static void startTsa() throws Exception {
        tsa = OpensslTsa.start(shared.resolve("tsa"), 0);
    }

    @AfterAll
    static void stopTsa() {
        tsa.close();
    }

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        assertThat(cli.run("keys", "create").exit()).isZero();
    }

    /** Writes the report of {@code bundle}, checks its text against verify --json, renders it, and returns its commands' results. */
    private List<ReportTools.Ran> reportAndRun(Path bundle, String name, String... trust) throws Exception {
        Path pdf = tmp.resolve(name + ".pdf");
        List<String> args = new ArrayList<>(List.of("report", "--date", ReportCommandTest.DATE, "-o", pdf.toString()));
        args.addAll(List.of(trust));
        args.add(bundle.toString());
        Cli.Result r = cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> verify = new ArrayList<>(List.of("verify", "--json"));
        verify.addAll(List.of(trust));
        verify.add(bundle.toString());
        JsonNode json = new ObjectMapper().readTree(cli.run(verify.toArray(String[]::new)).out());
        String text = ReportTools.pdftotext(pdf);
        assertThat(text).contains("Verdict: " + json.get("verdict").asText());
        json.get("checks").forEach(c -> assertThat(text).contains(c.get("code").asText()));
        for (JsonNode p : json.get("proofs")) {
            p.get("checks").forEach(c -> assertThat(text).contains(c.get("code").asText()));
            if (p.has("sha256")) {
                assertThat(text).contains(p.get("sha256").asText());
            }
        }
        ReportTools.pdftoppm(pdf, tmp.resolve(name + "-pages"));
        assertThat(ReportTools.veraPdf(pdf, "2b")).as("veraPDF, PDF/A-2b").isEmpty();
        Path dir = Files.isDirectory(bundle) ? copyFolder(bundle, tmp.resolve(name)) : ReportTools.unpack(bundle, tmp.resolve(name));
        Files.copy(pdf, dir.resolve(pdf.getFileName()));
        Files.copy(tmp.resolve(name + ".pdf.asc"), dir.resolve(name + ".pdf.asc"));
        assertThat(cli.run("keys", "export", "-o", dir.resolve("KEY.asc").toString()).exit()).isZero();
        Files.copy(tsa.caPem(), dir.resolve("TSA-ROOT.pem"));
        return ReportTools.run(ReportTools.commands(text), dir, tmp.resolve("t-" + name));
    }

    private static Path copyFolder(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (var s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
        return to;
    }

    @Test
    void report_ofTheAppsGoodBundle_everyCommandSucceeds() throws Exception {
        List<ReportTools.Ran> ran = reportAndRun(Samples.appGoodZip(), "app-good");
        assertThat(ran).anyMatch(r -> r.command().startsWith("gpg --batch --verify")).anyMatch(r -> r.command().contains("sha256sum"));
        // The app's proof waits at the public calendars: offline, ots checks the photo against it and reaches no calendar.
        assertThat(ran).anyMatch(r -> r.command().equals("ots verify -f smallest_jpeg.jpg " + Samples.APP_MEDIA_SHA256 + ".ots")
                && r.output().contains("calendar.opentimestamps.org") && !r.output().contains("Success!"));
        assertThat(ReportTools.pdftotext(tmp.resolve("app-good.pdf"))).contains("SHA1 is not considered secure");
        for (ReportTools.Ran r : ran) {
            if (r.command().startsWith("sqv ")) {
                // The app's key binds its subkey with SHA-1, which sqv's policy refuses; the report says so.
                assertThat(r.exit()).isNotZero();
                assertThat(r.output()).contains("SHA1 is not considered secure");
            } else {
                assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
            }
        }
    }

    @Test
    void report_ofTheAppsBadBundle_theForeignSignaturesCommandsFail() throws Exception {
        List<ReportTools.Ran> ran = reportAndRun(Samples.appBadZip(), "app-bad");
        List<String> failed = ran.stream().filter(r -> r.exit() != 0 && !r.command().startsWith("sqv ")).map(ReportTools.Ran::command).toList();
        assertThat(failed).hasSize(1).allMatch(c -> c.startsWith("gpg --batch --verify") && c.contains(".proof.json.asc"));
        assertThat(ran).filteredOn(r -> r.command().startsWith("sqv ")).isNotEmpty().allMatch(r -> r.exit() != 0);
    }

    @Test
    void report_ofA2016Proof_withoutPublicKey_saysHowToCheckTheSignatures() throws Exception {
        Path folder = Samples.file("proofmode/proofmode-android-sample-proof-1");
        List<ReportTools.Ran> ran = reportAndRun(folder, "app-2016");
        assertThat(ran).anyMatch(r -> r.command().contains("sha256sum"));
        ran.forEach(r -> assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero());
        assertThat(ReportTools.pdftotext(tmp.resolve("app-2016.pdf"))).contains("carries no public key");
    }

    @Test
    void report_ofATimestampedProof_givesTheOpensslCommand_thatSucceeds() throws Exception {
        Path media = Files.createDirectories(tmp.resolve("in")).resolve("IMG_0003.jpg");
        Files.copy(OwnMedia.examplePhoto(), media);
        String ca = tsa.caPem().toString();
        Cli.Result p = cli.run("prove", "--tsa", tsa.url().toString(), "--tsa-trust", ca, media.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        Path zip = tmp.resolve("stamped.zip");
        assertThat(cli.run("export", "--with-media", "-o", zip.toString(), media.toString()).exit()).isZero();
        List<ReportTools.Ran> ran = reportAndRun(zip, "stamped", "--tsa-trust", ca);
        String h = Digests.sha256(media);
        assertThat(ran).anyMatch(r -> r.command().equals("openssl ts -verify -in " + h + ".tsr -data " + h + ".asc -CAfile TSA-ROOT.pem")
                && r.output().contains("Verification: OK"));
        ran.forEach(r -> assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero());
    }

    @Test
    void report_ofOpenTimestamps_pendingAndInABlock_theOtsCommandsRunOffline_andFailForAChangedSignature() throws Exception {
        try (CalendarStub cal = CalendarStub.start(0)) {
            Files.writeString(tmp.resolve("home/timestamp.conf"), "ots.calendar = " + cal.url() + "\n");
            Path in = Files.createDirectories(tmp.resolve("in"));
            Path anchored = in.resolve("IMG_0004.jpg");
            Files.copy(OwnMedia.examplePhoto(), anchored);
            assertThat(cli.run("prove", "--ots", anchored.toString()).exit()).isZero();
            cal.anchor(800_001);
            assertThat(cli.run("timestamp", "upgrade").out()).contains("Bitcoin block 800001");
            Path pending = in.resolve("IMG_0005.jpg");
            Files.copy(anchored, pending);
            Tamper.flipByte(pending, 100);
            assertThat(cli.run("prove", "--ots", pending.toString()).exit()).isZero();

            String a = Digests.sha256(anchored);
            Path zipA = tmp.resolve("anchored.zip");
            assertThat(cli.run("export", "--with-media", "-o", zipA.toString(), anchored.toString()).exit()).isZero();
            List<ReportTools.Ran> ranA = reportAndRun(zipA, "anchored");
            String text = ReportTools.pdftotext(tmp.resolve("anchored.pdf"));
            assertThat(text).contains("timestamp.ots.bitcoin", "blockstream.info");
            String sigA = Digests.sha256(tmp.resolve("anchored").resolve(a + ".asc"));
            assertThat(ranA).anyMatch(r -> r.command().equals("ots info " + a + ".ots") && r.exit() == 0
                    && r.output().contains("File sha256 hash: " + sigA) && r.output().contains("BitcoinBlockHeaderAttestation(800001)"));
            for (ReportTools.Ran r : ranA) {
                if (r.command().startsWith("ots verify")) {
                    // Offline: the file matches the proof, and the block cannot be fetched.
                    assertThat(r.command()).isEqualTo("ots verify -f " + a + ".asc " + a + ".ots");
                    assertThat(r.exit()).isNotZero();
                    assertThat(r.output()).contains("bitcoin verification failed").doesNotContain("File does not match original");
                } else {
                    assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
                }
            }

            String b = Digests.sha256(pending);
            Path zipB = tmp.resolve("pending.zip");
            assertThat(cli.run("export", "--with-media", "-o", zipB.toString(), pending.toString()).exit()).isZero();
            List<ReportTools.Ran> ranB = reportAndRun(zipB, "pending");
            assertThat(ReportTools.pdftotext(tmp.resolve("pending.pdf"))).contains("ots info").doesNotContain("blockstream.info");
            ranB.forEach(r -> assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero());
            String sigB = Digests.sha256(tmp.resolve("pending").resolve(b + ".asc"));
            assertThat(ranB).anyMatch(r -> r.command().equals("ots info " + b + ".ots")
                    && r.output().contains("File sha256 hash: " + sigB) && r.output().contains("PendingAttestation('" + cal.url()));
            assertThat(ranB).anyMatch(r -> r.command().equals("ots verify -f " + b + ".asc " + b + ".ots"));

            // One changed byte in each signature: ots verify refuses it, before any network.
            checkChangedSignature(ranA, tmp.resolve("anchored").resolve(a + ".asc"));
            checkChangedSignature(ranB, tmp.resolve("pending").resolve(b + ".asc"));
        }
    }

    /** Changes one byte of {@code sig} and runs the report's ots verify line again: it must say the file does not match. */
    private void checkChangedSignature(List<ReportTools.Ran> ran, Path sig) throws Exception {
        Tamper.flipByte(sig, 40);
        List<String> verify = ran.stream().map(ReportTools.Ran::command).filter(c -> c.startsWith("ots verify")).toList();
        assertThat(verify).hasSize(1);
        assertThat(ReportTools.run(verify, sig.getParent(), tmp.resolve("t2-" + sig.getParent().getFileName()))).singleElement().satisfies(r -> {
            assertThat(r.exit()).isNotZero();
            assertThat(r.output()).contains("File does not match original!");
        });
    }

    @Test
    void report_ofAVideo_showsItsKeyFrames_andItsFrameListCommands() throws Exception {
        Path clip = Ffmpeg.make(Files.createDirectories(tmp.resolve("in")).resolve("clip.mp4"), "-f", "lavfi", "-i",
                "testsrc=size=320x240:rate=25:duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p");
        assertThat(cli.run("prove", clip.toString()).exit()).isZero();
        Path zip = tmp.resolve("video.zip");
        assertThat(cli.run("export", "--with-media", "-o", zip.toString(), clip.toString()).exit()).isZero();
        List<ReportTools.Ran> ran = reportAndRun(zip, "video");
        ran.forEach(r -> assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero());
        String h = Digests.sha256(clip);
        assertThat(ran).anyMatch(r -> r.command().equals("gpg --batch --verify " + h + ".frames.asc " + h + ".frames"));
        String pdf = Files.readString(tmp.resolve("video.pdf"), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(pdf.split("/Subtype /Image", -1).length - 1).as("three key frames").isEqualTo(3);
        assertThat(ReportTools.pdftotext(tmp.resolve("video.pdf"))).contains("frames.match", "Video.FrameHash");
    }

    @Test
    void report_ofARedactedCopy_showsTheCopyAndItsRedactionRecord() throws Exception {
        Path orig = Files.createDirectories(tmp.resolve("in")).resolve("original.jpg");
        Files.copy(OwnMedia.examplePhoto(), orig);
        assertThat(cli.run("prove", orig.toString()).exit()).isZero();
        Path copy = tmp.resolve("in").resolve("redacted.jpg");
        Cli.Result red = cli.run("redact", orig.toString(), "-o", copy.toString(), "--pixelate", "10,20,120,40");
        assertThat(red.exit()).as(red.err()).isZero();
        Path zip = tmp.resolve("redacted.zip");
        assertThat(cli.run("export", "--with-media", "-o", zip.toString(), copy.toString()).exit()).isZero();
        List<ReportTools.Ran> ran = reportAndRun(zip, "redacted");
        ran.forEach(r -> assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero());
        String h = Digests.sha256(copy);
        assertThat(ran).anyMatch(r -> r.command().equals("gpg --batch --verify " + h + ".redaction.json.asc " + h + ".redaction.json"));
        String text = ReportTools.pdftotext(tmp.resolve("redacted.pdf"));
        assertThat(text).contains("redaction.record.valid", "Proof of redacted.jpg").doesNotContain("Proof of original.jpg");
    }
}
