// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.C2paWasm;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftHsm;

/**
 * Content credentials signed by a P-256 key inside a SoftHSM2 token, its certificate issued by the home's
 * local CA: the reference validator (c2pa-rs) reads them as Trusted with that CA as anchor, and the home
 * holds no C2PA private key.
 */
class Pkcs11C2paIT {
    private static final String PIN = "424242";

    @TempDir
    Path dir;

    @Test
    void proveC2pa_referenceValidatorTrustsIt_tokenKeySigned() throws Exception {
        SoftHsm hsm = SoftHsm.create(dir, "c2pa", PIN);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                .withEnv("PROOFMODE_PIN", PIN);
        ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString());
        assertThat(created.exitCode()).as(created.describe()).isZero();
        Path photo = Files.copy(OwnMedia.examplePhoto(), dir.resolve("photo.jpg"));

        ProcessResult proved = pm.run("prove", "--c2pa", photo.toString());

        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        assertThat(proved.stderr()).contains("created a local C2PA certificate authority for the token's key");
        Path credentialed = dir.resolve("photo.c2pa.jpg");
        Path anchors = pm.home().resolve("c2pa/ca.pem");
        C2paWasm.Result r = C2paWasm.validate(credentialed, "image/jpeg", Optional.of(anchors));
        assertThat(r.state()).as(r.toString()).isEqualTo("Trusted");
        assertThat(r.failure()).isEmpty();
        assertThat(r.success()).contains("claimSignature.validated", "signingCredential.trusted");
        try (Stream<Path> files = Files.list(pm.home().resolve("c2pa"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).containsExactly("ca.pem", "signer.pem");
        }
        ProcessResult verified = pm.run("verify", "--c2pa-trust", anchors.toString(), credentialed.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("c2pa.signingCredential.trusted", "c2pa.claimSignature.validated");
    }

    @Test
    void proveC2pa_refusesInOneLine_rsaKeyInToken() {
        SoftHsm hsm = SoftHsm.create(dir, "rsa", PIN);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                .withEnv("PROOFMODE_PIN", PIN);
        ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString(), "--key-type", "rsa3072");
        assertThat(created.exitCode()).as(created.describe()).isZero();

        ProcessResult refused = pm.run("c2pa", "ca");

        assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(13);
        assertThat(refused.stderr()).isEqualTo("proofmode: C2PA signing with a key in a token needs a p256 key; this one is rsa3072 "
                + "(make one with: proofmode keys rotate --pkcs11 MODULE --key-type p256)\n");
        assertThat(pm.home().resolve("c2pa")).doesNotExist();
    }
}
