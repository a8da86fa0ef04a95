// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;

class ExportCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path media;
    private String h;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        media = ProveCommandTest.jpeg(tmp, "IMG_0001.jpg", 3000, 21);
        cli.run("prove", media.toString());
        h = Digests.sha256(media);
    }

    private static List<String> entries(Path zip) throws Exception {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            return Collections.list(z.entries()).stream().map(e -> e.getName()).toList();
        }
    }

    @Test
    void export_writesAppBundle_withMedia() throws Exception {
        Path zip = tmp.resolve("share.zip");
        Cli.Result r = cli.run("export", "--with-media", "-o", zip.toString(), media.toString());
        assertThat(r.exit()).isZero();
        assertThat(entries(zip)).containsExactlyInAnyOrder("IMG_0001.jpg", h + ".asc", h + ".proof.json", h + ".proof.json.asc",
                h + ".proof.csv", h + ".proof.csv.asc", "pubkey.asc", "HowToVerifyProofData.txt");
        Cli.Result v = cli.run("verify", zip.toString());
        assertThat(v.exit()).isZero();
        assertThat(v.out()).contains("PASS  media.hash.match");
    }

    @Test
    void export_leavesMediaOut_withProofOnlyByHash() throws Exception {
        Path zip = tmp.resolve("proof.zip");
        assertThat(cli.run("export", "--proof-only", "-o", zip.toString(), h).exit()).isZero();
        assertThat(entries(zip)).doesNotContain("IMG_0001.jpg").contains(h + ".asc", "pubkey.asc");
        Cli.Result v = cli.run("verify", zip.toString());
        assertThat(v.exit()).isZero();
        assertThat(v.out()).contains("WARN  media.missing");
    }

    @Test
    void export_findsRecordedMedia_withMediaByHashOfProofWithFullPath() throws Exception {
        assertThat(cli.run("settings", "set", "context.file-path", "full").exit()).isZero();
        assertThat(cli.run("prove", "--force", media.toString()).exit()).isZero();
        Path zip = tmp.resolve("share.zip");
        assertThat(cli.run("export", "--with-media", "-o", zip.toString(), h).exit()).isZero();
        assertThat(entries(zip)).contains("IMG_0001.jpg");
    }

    @Test
    void export_exits61_whenRecordedMediaChanged() throws Exception {
        assertThat(cli.run("settings", "set", "context.file-path", "full").exit()).isZero();
        assertThat(cli.run("prove", "--force", media.toString()).exit()).isZero();
        Files.write(media, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 1});
        Cli.Result r = cli.run("export", "--with-media", "-o", tmp.resolve("x.zip").toString(), h);
        assertThat(r.exit()).isEqualTo(61);
        assertThat(tmp.resolve("x.zip")).doesNotExist();
    }

    @Test
    void export_exits59_whenOutputExists() throws Exception {
        Path zip = Files.writeString(tmp.resolve("share.zip"), "keep me");
        Cli.Result r = cli.run("export", "--with-media", "-o", zip.toString(), media.toString());
        assertThat(r.exit()).isEqualTo(59);
        assertThat(Files.readString(zip)).isEqualTo("keep me");
        assertThat(cli.run("export", "--with-media", "--force", "-o", zip.toString(), media.toString()).exit()).isZero();
    }

    @Test
    void export_exits83_forBothModes() {
        Cli.Result r = cli.run("export", "--with-media", "--proof-only", "-o", tmp.resolve("x.zip").toString(), h);
        assertThat(r.exit()).isEqualTo(83);
    }

    @Test
    void export_sharesTheMedia_withoutMode() throws Exception {
        Path zip = tmp.resolve("x.zip");
        assertThat(cli.run("export", "-o", zip.toString(), media.toString()).exit()).isZero();
        assertThat(entries(zip)).contains("IMG_0001.jpg");
    }

    @Test
    void export_exits61_forUnknownHash() {
        Cli.Result r = cli.run("export", "--proof-only", "-o", tmp.resolve("x.zip").toString(), "0".repeat(64));
        assertThat(r.exit()).isEqualTo(61);
    }

    @Test
    void notarize_printsSmsText_withHashKeyAndTime() {
        Cli.Result r = cli.run("notarize", media.toString());
        assertThat(r.exit()).isZero();
        String text = r.out().strip();
        assertThat(text.length()).isLessThanOrEqualTo(160);
        String fpr = cli.run("keys", "show").out().lines().filter(l -> l.startsWith("fingerprint:")).findFirst().orElseThrow()
                .substring("fingerprint:".length()).strip();
        assertThat(text).contains(h, fpr).containsPattern("at:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }
}
