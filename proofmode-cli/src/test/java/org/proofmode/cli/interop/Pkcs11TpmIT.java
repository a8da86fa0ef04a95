// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftTpm;
import org.proofmode.testkit.Sqv;

/**
 * A device key inside a TPM 2.0 (a software TPM, swtpm, through tpm2-pkcs11 as a laptop's chip is
 * reached): made there, it signs proofs that GnuPG and sqv accept, and the proof records the TPM; a key
 * that {@code pkcs11-tool} made there is adopted and signs too.
 */
class Pkcs11TpmIT {
    private static final String PIN = "777888";

    @TempDir
    Path dir;

    @Test
    void createProve_verifiesWithGpgAndSqv_keyInSoftwareTpm() throws Exception {
        try (SoftTpm tpm = SoftTpm.start(dir, "laptop", PIN)) {
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("PROOFMODE_PIN", PIN);
            for (Map.Entry<String, String> e : tpm.env().entrySet()) {
                pm = pm.withEnv(e.getKey(), e.getValue());
            }

            ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftTpm.MODULE.toString(), "--token", "laptop");

            assertThat(created.exitCode()).as(created.describe()).isZero();
            assertThat(created.stdout()).contains("type:        ecdsa256", "storage:     pkcs11: IBM SW TPM (token \"laptop\"");
            ProofSet proof = ProofSet.prove(pm, TestMedia.jpeg(dir, "photo.jpg", 11));
            assertThat(Files.readString(proof.json())).contains("\"Proof.KeyStorage\":\"pkcs11: IBM SW TPM\"");
            try (Gpg gpg = Gpg.create(dir)) {
                gpg.importKey(proof.pubkey());
                for (ProofSet.Signed s : proof.signed()) {
                    ProcessResult r = gpg.verify(s.signature(), s.data());
                    assertThat(r.exitCode()).as(s.subject() + ": " + r.describe()).isZero();
                    ProcessResult q = Sqv.verify(proof.pubkey(), s.signature(), s.data());
                    assertThat(q.exitCode()).as(s.subject() + ": " + q.describe()).isZero();
                }
                Pkcs11KeysIT.assertNoSecretKeyIn(gpg, pm.home());
            }
            expectWrongPin(pm.withEnv("PROOFMODE_PIN", "000000").run("prove", "--force", proof.media().toString()));

            // a key the TPM token's own tools made, with no certificate: adopted in another home
            ProcessResult made = ExternalTool.run(List.of(ExternalTool.require("pkcs11-tool").toString(), "--module", SoftTpm.MODULE.toString(),
                    "--token-label", "laptop", "--login", "--pin", PIN, "--keypairgen", "--key-type", "EC:prime256v1", "--id", "0e",
                    "--label", "tpm-made"), tpm.env(), Duration.ofSeconds(120));
            assertThat(made.exitCode()).as(made.describe()).isZero();
            ProofModeJar other = ProofModeJar.at(dir.resolve("other")).withEnv("PROOFMODE_PIN", PIN);
            for (Map.Entry<String, String> e : tpm.env().entrySet()) {
                other = other.withEnv(e.getKey(), e.getValue());
            }
            ProcessResult used = other.run("keys", "use", "--pkcs11", SoftTpm.MODULE.toString(), "--token", "laptop", "--key-id", "tpm-made");
            assertThat(used.exitCode()).as(used.describe()).isZero();
            ProofSet adopted = ProofSet.prove(other, TestMedia.jpeg(dir, "adopted.jpg", 12));
            ProcessResult q = Sqv.verify(adopted.pubkey(), adopted.mediaSig(), adopted.media());
            assertThat(q.exitCode()).as(q.describe()).isZero();
            assertThat(q.stdout()).isEqualTo(Pkcs11KeysIT.fingerprint(used.stdout()) + "\n");
        }
    }

    private static void expectWrongPin(ProcessResult r) {
        assertThat(r.exitCode()).as(r.describe()).isEqualTo(67);
        assertThat(r.stderr()).as(r.describe()).contains("wrong PIN");
    }
}
