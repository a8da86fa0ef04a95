// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Sqv;
import org.proofmode.testkit.Tamper;

/** {@code proofmode export}: the share zip holds what the app's does, and gpg and sqv verify its files. */
class ExportIT {
    @TempDir
    Path dir;

    private ProofModeJar pm;
    private ProofSet proof;

    @BeforeEach
    void prove() throws IOException {
        pm = ProofModeJar.at(dir.resolve("home"));
        proof = ProofSet.prove(pm, TestMedia.jpeg(dir.resolve("camera"), "photo.jpg", 8));
    }

    @Test
    void export_zipHoldsMediaProofKeyAndHowTo_withMedia() throws IOException {
        Path zip = dir.resolve("share.zip");

        ProcessResult r = pm.run("export", "--with-media", "-o", zip.toString(), proof.media().toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        Map<String, byte[]> entries = Tamper.readZip(zip);
        String h = proof.sha256();
        assertThat(entries).containsOnlyKeys("photo.jpg", h + ".asc", h + ".proof.json", h + ".proof.json.asc",
                h + ".proof.csv", h + ".proof.csv.asc", "pubkey.asc", "HowToVerifyProofData.txt");
        assertThat(entries.get("photo.jpg")).isEqualTo(Files.readAllBytes(proof.media()));
        assertThat(new String(entries.get("HowToVerifyProofData.txt"), StandardCharsets.UTF_8)).contains("gpg --verify");

        ProofSet unpacked = ProofSet.unzip(zip, dir.resolve("unpacked"), h, "photo.jpg");
        ProcessResult sum = ExternalTool.run(List.of(ExternalTool.require("sha256sum").toString(), unpacked.media().toString()),
                Map.of(), Duration.ofSeconds(60));
        assertThat(sum.stdout()).as("step 1 of HowToVerifyProofData.txt: " + sum.describe()).startsWith(h + "  ");
        try (Gpg gpg = Gpg.create(dir)) {
            gpg.importKey(unpacked.pubkey());
            for (ProofSet.Signed s : unpacked.signed()) {
                ProcessResult g = gpg.verify(s.signature(), s.data());
                assertThat(g.exitCode()).as(s.subject() + ": " + g.describe()).isZero();
                ProcessResult q = Sqv.verify(unpacked.pubkey(), s.signature(), s.data());
                assertThat(q.exitCode()).as(s.subject() + ": " + q.describe()).isZero();
            }
        }
        ProcessResult v = ProofModeJar.at(dir.resolve("recipient")).run("verify", "--json", zip.toString());
        assertThat(v.exitCode()).as(v.describe()).isZero();
        assertThat(JsonReport.of(v).verdict()).isEqualTo("VALID");
        assertThat(JsonReport.of(v).status("media.hash.match")).isEqualTo("PASS");
    }

    @Test
    void export_zipHasNoMedia_proofOnlyByHash() {
        Path zip = dir.resolve("proof.zip");

        ProcessResult r = pm.run("export", "--proof-only", "-o", zip.toString(), proof.sha256());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = proof.sha256();
        assertThat(Tamper.readZip(zip)).containsOnlyKeys(h + ".asc", h + ".proof.json", h + ".proof.json.asc",
                h + ".proof.csv", h + ".proof.csv.asc", "pubkey.asc", "HowToVerifyProofData.txt");
        ProcessResult v = ProofModeJar.at(dir.resolve("recipient")).run("verify", "--json", zip.toString());
        assertThat(v.exitCode()).as(v.describe()).isZero();
        assertThat(JsonReport.of(v).status("media.missing")).isEqualTo("WARN");
    }

    @Test
    void export_exits59AndKeepsFile_outputExistsWithoutForce() throws IOException {
        Path zip = Files.writeString(dir.resolve("share.zip"), "keep me");

        ProcessResult r = pm.run("export", "--with-media", "-o", zip.toString(), proof.media().toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(59);
        assertThat(r.stderr()).contains("exists");
        assertThat(zip).hasContent("keep me");

        ProcessResult forced = pm.run("export", "--with-media", "--force", "-o", zip.toString(), proof.media().toString());
        assertThat(forced.exitCode()).as(forced.describe()).isZero();
        assertThat(Tamper.readZip(zip)).containsKey("photo.jpg");
    }
}
