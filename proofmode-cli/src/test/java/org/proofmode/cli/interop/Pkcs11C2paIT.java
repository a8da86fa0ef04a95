// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        ProofModeJar pm = homeWithTokenKey("c2pa");
        Path photo = Files.copy(OwnMedia.examplePhoto(), dir.resolve("photo.jpg"));

        ProcessResult proved = pm.run("prove", "--c2pa", photo.toString());

        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        assertThat(proved.stderr()).contains("created a local C2PA certificate authority for the token's key");
        Path credentialed = dir.resolve("photo.c2pa.jpg");
        Path anchors = pm.home().resolve("c2pa/ca.pem");
        assertReferenceValidatorTrusts(credentialed, anchors);
        try (Stream<Path> files = Files.list(pm.home().resolve("c2pa"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).containsExactly("ca.pem", "signer.pem");
        }
        ProcessResult verified = pm.run("verify", "--c2pa-trust", anchors.toString(), credentialed.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("c2pa.signingCredential.trusted", "c2pa.claimSignature.validated");
    }

    @Test
    void c2paSignAndRedactC2pa_referenceValidatorTrustsBoth_tokenKeySigned() throws Exception {
        ProofModeJar pm = homeWithTokenKey("sign");
        Path photo = Files.copy(OwnMedia.examplePhoto(), dir.resolve("photo.jpg"));
        Path anchors = pm.home().resolve("c2pa/ca.pem");

        Path signed = dir.resolve("signed.jpg");
        ProcessResult sign = pm.run("c2pa", "sign", "-o", signed.toString(), photo.toString());
        assertThat(sign.exitCode()).as(sign.describe()).isZero();
        assertReferenceValidatorTrusts(signed, anchors);

        Path redacted = dir.resolve("redacted.jpg");
        ProcessResult redact = pm.run("redact", "--fill", "0,0,64,64", "--c2pa", "-o", redacted.toString(), photo.toString());
        assertThat(redact.exitCode()).as(redact.describe()).isZero();
        assertReferenceValidatorTrusts(redacted, anchors);
        ProcessResult verified = pm.run("verify", "--c2pa-trust", anchors.toString(), redacted.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("TRUSTED", "c2pa.signingCredential.trusted", "c2pa.claimSignature.validated");
        assertThat(pm.home().resolve("keys/secret.asc")).doesNotExist();
        try (Stream<Path> files = Files.list(pm.home().resolve("c2pa"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).containsExactly("ca.pem", "signer.pem");
        }
    }

    /** A home whose device key a SoftHSM2 token labelled {@code label} holds ({@code keys create} with these options), the PIN in the environment. */
    private ProofModeJar homeWithTokenKey(String label, String... keyOptions) {
        SoftHsm hsm = SoftHsm.create(dir, label, PIN);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                .withEnv("PROOFMODE_PIN", PIN);
        List<String> args = new ArrayList<>(List.of("keys", "create", "--pkcs11", SoftHsm.MODULE.toString()));
        args.addAll(List.of(keyOptions));
        ProcessResult created = pm.run(args.toArray(String[]::new));
        assertThat(created.exitCode()).as(created.describe()).isZero();
        return pm;
    }

    /** The reference validator (c2pa-rs) finds the file's manifest Trusted with {@code anchors}, its signature valid. */
    private static void assertReferenceValidatorTrusts(Path file, Path anchors) throws Exception {
        C2paWasm.Result r = C2paWasm.validate(file, "image/jpeg", Optional.of(anchors));
        assertThat(r.state()).as(file + ": " + r).isEqualTo("Trusted");
        assertThat(r.failure()).as(file.toString()).isEmpty();
        assertThat(r.success()).as(file.toString()).contains("claimSignature.validated", "signingCredential.trusted");
    }

    @Test
    void proveC2pa_refusesInOneLine_rsaKeyInToken() {
        ProofModeJar pm = homeWithTokenKey("rsa", "--key-type", "rsa3072");

        ProcessResult refused = pm.run("c2pa", "ca");

        assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(13);
        assertThat(refused.stderr()).isEqualTo("proofmode: C2PA signing with a key in a token needs a p256 key; this one is rsa3072 "
                + "(make one with: proofmode keys rotate --pkcs11 MODULE --key-type p256)\n");
        assertThat(pm.home().resolve("c2pa")).doesNotExist();
    }
}
