// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;

class VerifyCommandTest {
    private static final String STARLING = "proofmode/starlinglab-integrity-preprocessor/";
    private static final String APP_FINGERPRINT = "E1C95C68BC5C0C18A01657F0FD2E7EFAD559FF84";

    @TempDir
    Path tmp;

    private Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    @Test
    void verify_exits0AndTrusted_forOwnProvedFile() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 2000, 11);
        cli.run("prove", f.toString());
        Cli.Result r = cli.run("verify", f.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(": TRUSTED", "PASS  media.hash.match", "PASS  signature.media.valid",
                "PASS  signature.proofJson.valid", "PASS  signature.proofCsv.valid");
    }

    @Test
    void verify_exits3_forChangedMediaOfStoredProof() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 2000, 12);
        cli.run("prove", f.toString());
        String h = Digests.sha256(f);
        byte[] b = Files.readAllBytes(f);
        b[1000] ^= 1;
        Files.write(f, b);
        Path folder = tmp.resolve("home/proofs").resolve(h);
        Cli.Result r = cli.run("verify", "--media", f.toString(), folder.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).contains("INVALID", "FAIL  media.hash.mismatch", "FAIL  signature.media.invalid");
    }

    @Test
    void verify_exits61_forMediaWithoutProof() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 2000, 13);
        Cli.Result r = cli.run("verify", f.toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("no proof of this file");
    }

    @Test
    void verify_exits0WithSigner_forAppGoodZip() {
        Cli.Result r = cli.run("verify", Cli.sample(STARLING + "good.zip").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(": VALID", APP_FINGERPRINT, "WARN  signer.untrusted");
    }

    @Test
    void verify_exits3NamingJsonSignature_forAppBadZip() {
        Cli.Result r = cli.run("verify", Cli.sample(STARLING + "bad.zip").toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).containsPattern("FAIL  signature\\.proofJson\\.invalid +[0-9a-f…]+\\.proof\\.json\\.asc");
    }

    @Test
    void verify_exits3NamingMediaSignature_forAppNoJsonZip() {
        Cli.Result r = cli.run("verify", Cli.sample(STARLING + "no-json.zip").toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).contains("FAIL  signature.media.invalid", "PASS  signature.proofCsv.valid");
    }

    @Test
    void verify_exits3AndNeverValid_for2016FolderWithoutKey() {
        Cli.Result r = cli.run("verify", Cli.sample("proofmode/proofmode-android-sample-proof-1").toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).contains("PASS  media.hash.match", "signature.media.unverifiable", "signature.proofCsv.unverifiable")
                .doesNotContain(".valid ");
    }

    @Test
    void verify_printsReportJson_withJsonOption() throws Exception {
        Cli.Result r = cli.run("verify", "--json", Cli.sample(STARLING + "good.zip").toString());
        assertThat(r.exit()).isZero();
        JsonNode n = new ObjectMapper().readTree(r.out());
        assertThat(n.get("verdict").asText()).isEqualTo("VALID");
        JsonNode proof = n.get("proofs").get(0);
        assertThat(proof.get("signer").get("fingerprint").asText()).isEqualTo(APP_FINGERPRINT);
        assertThat(proof.get("checks").findValuesAsText("code")).contains("media.hash.match", "signature.media.valid");
        assertThat(proof.get("record").get("Hardware").asText()).isEqualTo("Samsung SM-A505W");
    }

    @Test
    void verify_exits43_whenTrustRequiredButSignerUntrusted() throws Exception {
        Path zip = Cli.othersBundle(tmp, "sender", 0);
        assertThat(cli.run("verify", zip.toString()).exit()).as("valid when trust is not required").isZero();
        Cli.Result r = cli.run("verify", "--require-trusted", zip.toString());
        assertThat(r.exit()).isEqualTo(43);
        assertThat(r.err()).contains("not signed by a trusted key");
    }

    @Test
    void verify_isTrusted_withTrustedAppKey() throws Exception {
        Path key = tmp.resolve("app.asc");
        try (ZipFile z = new ZipFile(Cli.sample(STARLING + "good.zip").toFile()); InputStream in = z.getInputStream(z.getEntry("pubkey.asc"))) {
            Files.write(key, in.readAllBytes());
        }
        Cli.Result r = cli.run("verify", "--trust", key.toString(), "--require-trusted", Cli.sample(STARLING + "good.zip").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(": TRUSTED", "PASS  signer.trusted");
    }

    @Test
    void verify_exits43_whenTrustedKeyIsAnother() throws Exception {
        cli.run("keys", "create");
        Path mine = tmp.resolve("mine.asc");
        Files.writeString(mine, cli.run("keys", "export").out());
        Cli other = new Cli(tmp.resolve("other-home"));
        Path zip = Cli.othersBundle(tmp, "sender", 0);
        Cli.Result r = other.run("verify", "--trust", mine.toString(), "--require-trusted", zip.toString());
        assertThat(r.exit()).isEqualTo(43);
    }

    @Test
    void verify_exits41WithOneLine_forTruncatedZip() throws Exception {
        byte[] zip = Files.readAllBytes(Cli.othersBundle(tmp, "sender", 0));
        Path cut = Files.write(tmp.resolve("cut.zip"), java.util.Arrays.copyOf(zip, zip.length / 2));
        Cli.Result r = cli.run("verify", cut.toString());
        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).contains("cut.zip").doesNotContain("Exception");
    }

    @Test
    void verify_exits41_forFileThatIsNotAZip() throws Exception {
        Path txt = Files.writeString(tmp.resolve("bundle.zip"), "hello, not a zip");
        Cli.Result r = cli.run("verify", txt.toString());
        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.err()).contains("bundle.zip", "not a share bundle, proof folder or media file we know");
    }

    @Test
    void verify_exits41_sayingWhatItTakes_textFile() throws Exception {
        Path notes = Files.writeString(tmp.resolve("notes.txt"), "met the source at 10:00\n");
        Cli.Result r = cli.run("verify", notes.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err().lines()).containsExactly("proofmode: " + notes + ": not a share bundle, proof folder or media file we know");
    }

    @Test
    void verify_exits61_forMissingPath() {
        Cli.Result r = cli.run("verify", tmp.resolve("none.zip").toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("none.zip");
    }

    @Test
    void verify_exits41_forUnsafeEntryName() throws Exception {
        Path zip = tmp.resolve("slip.zip");
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new java.util.zip.ZipEntry("../../evil.txt"));
            out.write("x".getBytes());
            out.closeEntry();
        }
        Cli.Result r = cli.run("verify", zip.toString());
        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.err()).contains("unsafe entry name");
        assertThat(tmp.getParent().resolve("evil.txt")).doesNotExist();
    }
}
