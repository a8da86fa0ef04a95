// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.print.Terminal;
import org.proofmode.media.Digests;

class ProveCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    static Path jpeg(Path dir, String name, int size, long seed) throws Exception {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        b[0] = (byte) 0xFF;
        b[1] = (byte) 0xD8;
        b[2] = (byte) 0xFF;
        b[3] = (byte) 0xE0;
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), b);
    }

    @Test
    void prove_saysOnATerminal_thatVideoIsDecodedAfterItIsRead() throws Exception {
        Path photo = jpeg(tmp, "a.jpg", 5000, 1);
        // An MP4 header and noise: a video to the sniffer (ffmpeg will not decode it: a warning in the proof).
        byte[] mp4 = new byte[20_000];
        new Random(2).nextBytes(mp4);
        System.arraycopy(new byte[] {0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'm', 'p', '4', '2', 0, 0, 0, 0, 'm', 'p', '4', '2', 'i', 's', 'o', 'm'},
                0, mp4, 0, 24);
        Path video = Files.write(tmp.resolve("v.mp4"), mp4);
        String notice = "also decoded by ffmpeg for their frame and sample hashes";

        assertThat(cli.terminal(Terminal.WATCHED).run("prove", video.toString()).err()).contains(notice);
        assertThat(cli.terminal(Terminal.WATCHED).run("prove", photo.toString()).err()).doesNotContain(notice);
        assertThat(cli.terminal(Terminal.NONE).run("prove", "--force", video.toString()).err()).as("not in scripts").doesNotContain(notice);
        cli.run("settings", "set", "frame-hashes", "false");
        assertThat(cli.terminal(Terminal.WATCHED).run("prove", "--force", video.toString()).err()).doesNotContain(notice);
    }

    @Test
    void prove_printsHashAndPath_forMediaFile() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 5000, 1);
        Cli.Result r = cli.run("prove", f.toString());
        String h = Digests.sha256(f);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo(h + "  " + f + System.lineSeparator());
        Path folder = home.resolve("proofs").resolve(h);
        assertThat(folder.resolve(h + ".proof.json")).exists();
        assertThat(folder.resolve(h + ".proof.csv")).exists();
        assertThat(folder.resolve(h + ".asc")).exists();
        assertThat(folder.resolve(h + ".proof.json.asc")).exists();
        assertThat(folder.resolve(h + ".proof.csv.asc")).exists();
        assertThat(folder.resolve("pubkey.asc")).exists();
        assertThat(r.err()).contains("created device key");
    }

    @Test
    void prove_recordsNotesAndFields_inJson() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 2);
        cli.run("prove", "--notes", "main square, noon", f.toString());
        String h = Digests.sha256(f);
        String json = Files.readString(home.resolve("proofs").resolve(h).resolve(h + ".proof.json"));
        assertThat(json).contains("\"Notes\":\"main square, noon\"", "\"File Hash SHA256\":\"" + h + "\"",
                "\"File Path\":", "\"File Created\":", "\"File Modified\":", "\"Proof Generated\":", "\"Language\":",
                "\"Locale\":", "\"Hardware\":", "\"Manufacturer\":", "\"OS\":");
        assertThat(json).containsPattern("\"Proof Generated\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\"");
    }

    @Test
    void prove_keepsExistingProof_whenProvedAgain() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 3);
        cli.run("prove", f.toString());
        String h = Digests.sha256(f);
        Path json = home.resolve("proofs").resolve(h).resolve(h + ".proof.json");
        String before = Files.readString(json);
        Cli.Result again = cli.run("prove", f.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.out()).startsWith(h);
        assertThat(again.err()).contains("already proved");
        assertThat(Files.readString(json)).isEqualTo(before);
    }

    @Test
    void prove_writesFreshProof_withForce() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 4);
        cli.run("prove", "--notes", "first", f.toString());
        cli.run("prove", "--force", "--notes", "second", f.toString());
        String h = Digests.sha256(f);
        assertThat(Files.readString(home.resolve("proofs").resolve(h).resolve(h + ".proof.json"))).contains("second");
        try (var s = Files.list(home.resolve("proofs"))) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly(h);
        }
    }

    @Test
    void prove_walksFoldersAndSkipsOtherFiles_withNotice() throws Exception {
        Path dir = tmp.resolve("dcim");
        jpeg(dir, "1.jpg", 100, 5);
        jpeg(dir.resolve("sub"), "2.jpg", 100, 6);
        Files.writeString(dir.resolve("readme.txt"), "hello");
        Cli.Result r = cli.run("prove", "--out", tmp.resolve("out").toString(), dir.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines()).hasSize(2);
        assertThat(r.err()).contains("skipped " + dir.resolve("readme.txt"));
        try (var s = Files.list(tmp.resolve("out"))) {
            assertThat(s.count()).isEqualTo(2);
        }
        assertThat(home.resolve("proofs")).doesNotExist();
    }

    @Test
    void prove_exits13_forNamedFileThatIsNotMedia() throws Exception {
        Path txt = Files.writeString(tmp.resolve("photo.jpg"), "not really a photo");
        Cli.Result r = cli.run("prove", txt.toString());
        assertThat(r.exit()).isEqualTo(13);
        assertThat(r.err()).contains("skipped", "photo.jpg");
    }

    @Test
    void prove_exits61_forMissingFile() {
        Cli.Result r = cli.run("prove", tmp.resolve("nope.jpg").toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("nope.jpg: no such file").doesNotContain("Exception", "\tat ");
    }

    @Test
    void prove_exits67_forWrongPassphrase() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 7);
        cli.run("keys", "create");
        Cli.Result r = cli.env("PROOFMODE_PASSPHRASE", "wrong").run("prove", f.toString());
        assertThat(r.exit()).isEqualTo(67);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).contains("wrong passphrase");
    }

    @Test
    void prove_generatesPassphrase_whenNoneGiven() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 8);
        Cli noPass = new Cli(home);
        Cli.Result r = noPass.run("prove", f.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("generated", "keys protect");
        assertThat(home.resolve("keys/passphrase")).exists();
        Cli.Result again = noPass.run("prove", "--force", f.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.err()).doesNotContain("generated");
    }

    @Test
    void prove_createsRsaKey_withKeyTypeOption() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 9);
        assertThat(cli.run("prove", "--key-type", "rsa4096", f.toString()).exit()).isZero();
        assertThat(cli.run("keys", "show").out()).contains("rsa4096");
    }

    @Test
    void prove_exits37_forBadOptionValue() throws Exception {
        Path f = jpeg(tmp, "a.jpg", 100, 10);
        Cli.Result r = cli.run("prove", "--key-type", "dsa", f.toString());
        assertThat(r.exit()).isEqualTo(37);
        assertThat(r.err()).contains("--key-type");
    }
}
