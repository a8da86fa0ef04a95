// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftTpm;
import org.proofmode.testkit.Sqv;

/**
 * A device key inside a TPM 2.0 (a software TPM, swtpm, through tpm2-pkcs11 as a laptop's chip is
 * reached): made there, it signs proofs that GnuPG and sqv accept, and the proof records the TPM.
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
        }
    }

    private static void expectWrongPin(ProcessResult r) {
        assertThat(r.exitCode()).as(r.describe()).isEqualTo(67);
        assertThat(r.stderr()).as(r.describe()).contains("wrong PIN");
    }
}
