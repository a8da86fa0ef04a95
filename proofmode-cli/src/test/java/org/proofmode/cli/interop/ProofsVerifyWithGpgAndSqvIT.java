// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Sqv;

/** We sign, independent OpenPGP tools verify: GnuPG and Sequoia's sqv accept all three signatures. */
class ProofsVerifyWithGpgAndSqvIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ed25519, EDDSA", "rsa4096, RSA"})
    void gpgVerify_acceptsAllThreeSignatures_deviceKeyOfType(String keyType, String gpgAlgorithm) throws IOException {
        ProofSet proof = ProofSet.prove(ProofModeJar.at(dir.resolve("home")), TestMedia.jpeg(dir, "photo.jpg", 1), "--key-type", keyType);

        try (Gpg gpg = Gpg.create(dir)) {
            String fingerprint = single(gpg.fingerprintsOf(proof.pubkey()));
            gpg.importKey(proof.pubkey());
            for (ProofSet.Signed s : proof.signed()) {
                ProcessResult r = gpg.verify(s.signature(), s.data());
                assertThat(r.exitCode()).as(s.subject() + ": " + r.describe()).isZero();
                assertThat(r.stderr()).as(s.subject()).contains("Good signature", "using " + gpgAlgorithm + " key " + fingerprint);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ed25519", "rsa4096"})
    void sqv_acceptsAllThreeSignaturesPrintingSigner_deviceKeyOfType(String keyType) throws IOException {
        ProofSet proof = ProofSet.prove(ProofModeJar.at(dir.resolve("home")), TestMedia.jpeg(dir, "photo.jpg", 2), "--key-type", keyType);
        String fingerprint;
        try (Gpg gpg = Gpg.create(dir)) {
            fingerprint = single(gpg.fingerprintsOf(proof.pubkey()));
        }

        for (ProofSet.Signed s : proof.signed()) {
            ProcessResult r = Sqv.verify(proof.pubkey(), s.signature(), s.data());
            assertThat(r.exitCode()).as(s.subject() + ": " + r.describe()).isZero();
            assertThat(r.stdout()).as(s.subject()).isEqualTo(fingerprint + "\n");
        }
    }

    private static String single(List<String> fingerprints) {
        assertThat(fingerprints).hasSize(1);
        return fingerprints.get(0);
    }
}
