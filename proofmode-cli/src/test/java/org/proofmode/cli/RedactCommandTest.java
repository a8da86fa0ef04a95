// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Random;
import java.util.zip.ZipFile;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;

class RedactCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    /** A photo-like image with detail (noise, text, a disc), written as JPEG or PNG. */
    static Path photo(Path dir, String name, String format, long seed) throws Exception {
        BufferedImage img = new BufferedImage(320, 240, BufferedImage.TYPE_INT_RGB);
        Random rnd = new Random(seed);
        for (int y = 0; y < 240; y++) {
            for (int x = 0; x < 320; x++) {
                img.setRGB(x, y, (x * 255 / 320 + rnd.nextInt(16)) << 16 | (y + rnd.nextInt(16)) << 8 | (128 + rnd.nextInt(16)));
            }
        }
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.drawString("PRESS CARD 0042 MARIA", 20, 40);
        g.setColor(Color.YELLOW);
        g.fillOval(150, 100, 80, 80);
        g.dispose();
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        ImageIO.write(img, format, p.toFile());
        return p;
    }

    @Test
    void redact_writesCopyAndProofWithSignedRecord_andVerifySaysDerivedFromAProvedOriginal() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 1);
        assertThat(cli.run("prove", orig.toString()).exit()).isZero();
        Path out = tmp.resolve("public.jpg");

        Cli.Result r = cli.run("redact", orig.toString(), "-o", out.toString(), "--pixelate", "10,20,120,40", "--blur", "150,100,80,80",
                "--fill", "0,200,50,40");

        assertThat(r.exit()).as(r.err()).isZero();
        String h = Digests.sha256(out);
        assertThat(r.out()).contains("region 1  pixelate  10,20,120,40  manual", "region 2  blur  150,100,80,80  manual",
                "region 3  fill  0,200,50,40  manual", h + "  " + out);
        Path folder = tmp.resolve("home/proofs").resolve(h);
        assertThat(folder.resolve(h + ".redaction.json")).exists();
        assertThat(folder.resolve(h + ".redaction.json.asc")).exists();
        String record = Files.readString(folder.resolve(h + ".redaction.json"));
        assertThat(record).contains(Digests.sha256(orig), "\"strip\" : \"all\"").doesNotContain(orig.toString());
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  redaction.signature.valid", "PASS  redaction.record.valid",
                "derived by redaction from a proved original " + Digests.sha256(orig).substring(0, 8));
    }

    @Test
    void verifyOriginal_passes_forTheOriginal_andExactlyForAPngCopy() throws Exception {
        Path orig = photo(tmp, "orig.png", "png", 2);
        cli.run("prove", orig.toString());
        Path out = tmp.resolve("public.png");
        assertThat(cli.run("redact", orig.toString(), "-o", out.toString(), "--pixelate", "10,20,120,40").exit()).isZero();

        Cli.Result v = cli.run("verify", "--original", orig.toString(), out.toString());

        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  redaction.original.match", "PASS  redaction.original.proofValid",
                "PASS  redaction.outside.unchanged", "every pixel outside the 1 regions equals the original's",
                "PASS  redaction.inside.changed");
    }

    @Test
    void verifyOriginal_exits3NamingTheCheck_forTheWrongOriginal() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 3);
        Path other = photo(tmp, "other.jpg", "jpeg", 4);
        cli.run("prove", orig.toString());
        Path out = tmp.resolve("public.jpg");
        cli.run("redact", orig.toString(), "-o", out.toString(), "--fill", "10,20,120,40");

        Cli.Result v = cli.run("verify", "--original", other.toString(), out.toString());

        assertThat(v.exit()).isEqualTo(3);
        assertThat(v.out()).contains("INVALID", "FAIL  redaction.original.mismatch", "this is not its original");
    }

    @Test
    void verify_exits3NamingTheCheck_forATamperedRecord() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 5);
        Path out = tmp.resolve("public.jpg");
        cli.run("redact", orig.toString(), "-o", out.toString(), "--fill", "10,20,120,40");
        String h = Digests.sha256(out);
        Path rec = tmp.resolve("home/proofs").resolve(h).resolve(h + ".redaction.json");
        Files.writeString(rec, Files.readString(rec).replace("\"x\" : 10", "\"x\" : 11"));

        Cli.Result v = cli.run("verify", out.toString());

        assertThat(v.exit()).isEqualTo(3);
        assertThat(v.out()).contains("FAIL  redaction.signature.invalid");
    }

    @Test
    void verifyOriginal_exits3NamingTheChecks_forATamperedCopy() throws Exception {
        Path orig = photo(tmp, "orig.png", "png", 6);
        Path out = tmp.resolve("public.png");
        cli.run("redact", orig.toString(), "-o", out.toString(), "--fill", "10,20,120,40");
        String h = Digests.sha256(out);
        BufferedImage img = ImageIO.read(out.toFile());
        img.setRGB(300, 200, 0xFF00FF);
        Path edited = tmp.resolve("edited.png");
        ImageIO.write(img, "png", edited.toFile());

        Cli.Result v = cli.run("verify", "--media", edited.toString(), "--original", orig.toString(),
                tmp.resolve("home/proofs").resolve(h).toString());

        assertThat(v.exit()).isEqualTo(3);
        assertThat(v.out()).contains("FAIL  media.hash.mismatch", "FAIL  redaction.outside.changed", "1 pixels outside the regions differ");
    }

    @Test
    void export_includesTheRecordAndItsSignature_andTheBundleVerifiesAgainstTheOriginal() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 7);
        cli.run("prove", orig.toString());
        Path out = tmp.resolve("public.jpg");
        cli.run("redact", orig.toString(), "-o", out.toString(), "--pixelate", "10,20,120,40");
        String h = Digests.sha256(out);
        Path zip = tmp.resolve("share.zip");

        assertThat(cli.run("export", "--with-media", "-o", zip.toString(), out.toString()).exit()).isZero();
        Path origZip = tmp.resolve("orig.zip");
        assertThat(cli.run("export", "--with-media", "-o", origZip.toString(), orig.toString()).exit()).isZero();

        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertThat(Collections.list(z.entries()).stream().map(e -> e.getName()))
                    .contains(h + ".redaction.json", h + ".redaction.json.asc", "public.jpg");
        }
        Cli.Result v = cli.run("verify", "--original", origZip.toString(), zip.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  redaction.record.valid", "PASS  redaction.original.match", "PASS  redaction.original.proofValid",
                "PASS  redaction.outside.unchanged");
    }

    @Test
    void verifyOriginal_ofAProofWithoutRecord_comparesTheMedia() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 8);
        cli.run("prove", orig.toString());
        Cli.Result v = cli.run("verify", "--original", orig.toString(), orig.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  compare.bytes.identical").doesNotContain("redaction.");

        Path other = photo(tmp, "other.jpg", "jpeg", 9);
        Cli.Result d = cli.run("verify", "--original", other.toString(), orig.toString());
        assertThat(d.exit()).isEqualTo(3);
        assertThat(d.out()).contains("FAIL  compare.");
    }

    @Test
    void redact_exits59_whenTheCopyExists_andReplacesItWithForce() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 9);
        Path out = Files.writeString(tmp.resolve("public.jpg"), "keep me");

        Cli.Result r = cli.run("redact", orig.toString(), "-o", out.toString(), "--fill", "0,0,10,10");

        assertThat(r.exit()).isEqualTo(59);
        assertThat(r.err()).contains("exists already");
        assertThat(Files.readString(out)).isEqualTo("keep me");
        assertThat(cli.run("redact", "--force", orig.toString(), "-o", out.toString(), "--fill", "0,0,10,10").exit()).isZero();
        assertThat(Files.readAllBytes(out)[0]).isEqualTo((byte) 0xFF);
    }

    @Test
    void redact_refusesToReplaceTheOriginal() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 10);
        Cli.Result r = cli.run("redact", "--force", orig.toString(), "-o", orig.toString(), "--fill", "0,0,10,10");
        assertThat(r.exit()).isEqualTo(37);
        assertThat(r.err()).contains("must not replace the original");
    }

    @Test
    void redact_exits13_forAFileThatIsNotAJpegOrPng() throws Exception {
        Path wav = Files.write(tmp.resolve("a.wav"), "RIFF\0\0\0\0WAVEfmt ".getBytes(StandardCharsets.US_ASCII));
        Cli.Result r = cli.run("redact", wav.toString(), "-o", tmp.resolve("out.wav").toString());
        assertThat(r.exit()).isEqualTo(13);
        assertThat(r.err()).contains("JPEG and PNG photos only");
    }

    @Test
    void redact_exits37_forARegionOutsideTheImageOrNotX_Y_W_H() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 11);
        Cli.Result outside = cli.run("redact", orig.toString(), "-o", tmp.resolve("o.jpg").toString(), "--blur", "300,200,50,50");
        Cli.Result garbled = cli.run("redact", orig.toString(), "-o", tmp.resolve("o.jpg").toString(), "--blur", "1,2,3");
        assertThat(outside.exit()).isEqualTo(37);
        assertThat(outside.err()).contains("outside the 320x240 image");
        assertThat(garbled.exit()).isEqualTo(37);
        assertThat(garbled.err()).contains("is not X,Y,W,H");
        assertThat(tmp.resolve("o.jpg")).doesNotExist();
    }

    @Test
    void redact_exits61_whenTheFaceModelIsMissing() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 12);
        Cli.Result r = cli.run("redact", "--faces", "--face-model", tmp.resolve("none.xml").toString(), orig.toString(),
                "-o", tmp.resolve("o.jpg").toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("face model not found", "opencv-data");
    }

    @Test
    void redact_exits13_forAPngCopyThatShouldKeepExif() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 13);
        Cli.Result r = cli.run("redact", "--strip", "location", orig.toString(), "-o", tmp.resolve("o.png").toString());
        assertThat(r.exit()).isEqualTo(13);
        assertThat(r.err()).contains("JPEG copies only");
    }

    @Test
    void redact_dryRun_listsRegionsAndWritesNothing() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 14);
        Path out = tmp.resolve("o.jpg");
        Cli.Result r = cli.run("redact", "--dry-run", orig.toString(), "-o", out.toString(), "--fill", "1,2,30,40");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("region 1  fill  1,2,30,40  manual");
        assertThat(r.err()).contains("dry run: nothing written");
        assertThat(out).doesNotExist();
        assertThat(tmp.resolve("home/proofs")).doesNotExist();
    }
    @Test
    void redactC2paDryRun_listsWhatIsRedactedFromTheOriginalsCredentials_phoneCapture() throws Exception {
        Path orig = Cli.sample("c2pa-conformance-2/truepic-lensdemo-t4.jpg");
        Path out = tmp.resolve("o.jpg");
        Cli.Result r = cli.run("redact", "--c2pa", "--dry-run", orig.toString(), "-o", out.toString(), "--fill", "1,2,30,40");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("c2pa-redact  stds.exif__1  location  com.truepic:urn:uuid:a5594701-e4cb-4564-b979-56aa67a8fcdb");
        assertThat(r.out().lines().filter(l -> l.startsWith("c2pa-redact")).toList()).noneMatch(l -> l.contains("c2pa.actions"));
        assertThat(out).doesNotExist();
        Cli.Result keep = cli.run("redact", "--c2pa", "--dry-run", "--strip", "none", orig.toString(), "-o", out.toString(),
                "--fill", "1,2,30,40");
        assertThat(keep.out()).doesNotContain("location");
    }

    @Test
    void redactC2pa_embedsAManifestBeforeProving_andVerifyShowsBothTheRecordAndTheCredentials() throws Exception {
        Path orig = photo(tmp, "orig.jpg", "jpeg", 15);
        assertThat(cli.run("prove", orig.toString()).exit()).isZero();
        Path out = tmp.resolve("public.jpg");

        Cli.Result r = cli.run("redact", "--c2pa", orig.toString(), "-o", out.toString(), "--pixelate", "10,20,120,40", "--fill", "0,200,50,40");

        assertThat(r.exit()).as(r.err()).isZero();
        String h = Digests.sha256(out);
        assertThat(r.out()).contains(h + "  " + out);
        String record = Files.readString(tmp.resolve("home/proofs").resolve(h).resolve(h + ".redaction.json"));
        assertThat(record).contains("\"sha256\" : \"" + h + "\"", Digests.sha256(orig));
        org.proofmode.c2pa.C2paReport c2pa = new org.proofmode.c2pa.C2paReader(
                org.proofmode.c2pa.LocalCa.anchorsInHome(tmp.resolve("home")), java.util.List.of()).read(out).orElseThrow();
        assertThat(c2pa.state()).isEqualTo(org.proofmode.c2pa.ValidationState.TRUSTED);
        assertThat(c2pa.assertions()).contains("c2pa.ingredient.v3", "c2pa.actions.v2", "c2pa.hash.data", "org.proofmode.proof")
                .doesNotContain("c2pa.metadata");
        String bytes = new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1);
        assertThat(bytes).contains("parentOf", "urn:sha256:" + Digests.sha256(orig), "c2pa.opened", "c2pa.edited", "pixelated")
                .doesNotContain("orig.jpg");
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  redaction.record.valid", "PASS  redaction.signature.valid", "c2pa.claimSignature.validated",
                "c2pa.proofmode.signer.match", "TRUSTED");
        Cli.Result vo = cli.run("verify", "--original", orig.toString(), out.toString());
        assertThat(vo.exit()).as(vo.out()).isZero();
        assertThat(vo.out()).contains("PASS  redaction.outside.unchanged", "PASS  redaction.inside.changed");
    }

    @Test
    void redactC2pa_verifyFailsBothWays_whenAnImageByteOfTheCopyIsFlipped() throws Exception {
        Path orig = photo(tmp, "orig.png", "png", 16);
        cli.run("prove", orig.toString());
        Path out = tmp.resolve("public.png");
        assertThat(cli.run("redact", "--c2pa", orig.toString(), "-o", out.toString(), "--blur", "150,100,80,80").exit()).isZero();
        Path folder = tmp.resolve("home/proofs").resolve(Digests.sha256(out));
        byte[] b = Files.readAllBytes(out);
        b[b.length - 20] ^= 0x01;
        Files.write(out, b);

        Cli.Result v = cli.run("verify", "--media", out.toString(), folder.toString());

        assertThat(v.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(v.out()).contains("FAIL  media.hash.mismatch", "FAIL  c2pa.assertion.dataHash.mismatch", "PASS  redaction.signature.valid");
    }
}
