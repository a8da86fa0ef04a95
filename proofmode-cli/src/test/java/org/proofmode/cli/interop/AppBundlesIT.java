// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Sqv;

/**
 * Real bundles made by the ProofMode Android app (read in place from the shared samples): our verdicts,
 * gpg's agreement with them on every signature, and sqv's refusal of the app's key.
 */
class AppBundlesIT {
    private static final String SHA = Samples.APP_MEDIA_SHA256;

    @TempDir
    Path dir;

    @Test
    void verify_exits0NamingSigner_appGoodZip() {
        ProcessResult r = verify(Samples.appGoodZip());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("good.zip: VALID").contains(Samples.APP_GOOD_SIGNER)
                .containsPattern("signer: +" + Samples.APP_GOOD_SIGNER + " \\(rsa4096");
    }

    @Test
    void verify_exits3NamingJsonSignature_appBadZip() {
        ProcessResult r = verify(Samples.appBadZip());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(r.stdout()).contains("bad.zip: INVALID")
                .containsPattern("FAIL +signature\\.proofJson\\.invalid +" + SHA + "\\.proof\\.json\\.asc");
    }

    @Test
    void verify_exits3NamingMediaSignature_appNoJsonZip() {
        ProcessResult r = verify(Samples.appNoJsonZip());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(r.stdout()).contains("no-json.zip: INVALID")
                .containsPattern("FAIL +signature\\.media\\.invalid +" + SHA + "\\.asc");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"good.zip, VALID, 0", "bad.zip, INVALID, 3", "no-json.zip, INVALID, 3"})
    void verifyJson_parsesWithVerdict_appZip(String zip, String verdict, int exit) {
        ProcessResult r = ProofModeJar.at(dir.resolve("home")).run("verify", "--json", starling(zip).toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(exit);
        JsonReport report = JsonReport.of(r);
        assertThat(report.verdict()).isEqualTo(verdict);
        assertThat(report.root().path("source").asText()).endsWith(zip);
        assertThat(report.root().path("proofs")).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"good.zip", "bad.zip", "no-json.zip"})
    void gpg_agreesWithVerifyOnEverySignature_appZip(String zip) throws IOException {
        ProofSet bundle = unpack(zip);
        JsonReport ours = JsonReport.of(ProofModeJar.at(dir.resolve("home")).run("verify", "--json", starling(zip).toString()));

        int compared = 0;
        try (Gpg gpg = Gpg.create(dir)) {
            gpg.importKey(bundle.pubkey());
            for (ProofSet.Signed s : bundle.signed()) {
                if (!Files.exists(s.data())) {
                    continue; // no-json.zip has no .proof.json: nothing for anyone to check
                }
                ProcessResult g = gpg.verify(s.signature(), s.data());
                boolean weSayValid = ours.status("signature." + s.subject() + ".valid").equals("PASS");
                assertThat(g.succeeded()).as("gpg on " + s.subject() + ": " + g.describe()).isEqualTo(weSayValid);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(zip.equals("no-json.zip") ? 2 : 3);
    }

    /**
     * sqv cannot check the app's bundles at all: the app's RSA key binds itself with SHA-1
     * self-signatures, which Sequoia's standard policy rejects. Recipients must use gpg (as the
     * bundle's HowToVerifyProofData.txt says) or this tool. If sqv ever accepts them, this test tells.
     */
    @Test
    void sqv_rejectsGoodSignatureForSha1SelfSignatures_appGoodZip() throws IOException {
        ProofSet bundle = unpack("good.zip");

        ProcessResult q = Sqv.verify(bundle.pubkey(), bundle.jsonSig(), bundle.json());

        assertThat(q.exitCode()).as(q.describe()).isNotZero();
        assertThat(q.stderr()).contains("SHA1");
    }

    private ProofSet unpack(String zip) throws IOException {
        return ProofSet.unzip(starling(zip), dir.resolve("unpacked"), SHA, "smallest_jpeg.jpg");
    }

    private ProcessResult verify(Path zip) {
        return ProofModeJar.at(dir.resolve("home")).run("verify", zip.toString());
    }

    private static Path starling(String zip) {
        return Samples.file("proofmode/starlinglab-integrity-preprocessor/" + zip);
    }
}
