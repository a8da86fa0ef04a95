// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftHsm;

/**
 * {@code keys use} adopts key pairs that {@code pkcs11-tool --keypairgen} made in a SoftHSM2 token, with no
 * certificate beside them: named by label or by hex ID, they sign proofs that GnuPG, sqv and our verify
 * accept, and adopting one again (another home) gives the same fingerprint. One token and its two keys
 * serve the whole class.
 */
class Pkcs11AdoptIT {
    private static final String PIN = "314159";

    @TempDir
    static Path shared;

    private static SoftHsm hsm;

    @TempDir
    Path dir;

    @BeforeAll
    static void keysMadeByPkcs11Tool() {
        hsm = SoftHsm.create(shared, "adopt", PIN);
        keypairgen("EC:prime256v1", "0a", "ec-key");
        keypairgen("rsa:3072", "0b", "rsa-key");
        assertThat(hsm.objects()).contains("Private Key Object; EC", "Private Key Object; RSA").doesNotContain("Certificate Object");
    }

    private static void keypairgen(String type, String id, String label) {
        ProcessResult r = hsm.pkcs11Tool("--login", "--pin", PIN, "--keypairgen", "--key-type", type, "--id", id, "--label", label);
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }

    @ParameterizedTest(name = "{0} by {1}")
    @CsvSource({"EC, ec-key, ECDSA, ecdsa256, ec-key", "RSA, 0b, RSA, rsa3072, rsa-key"})
    void use_adoptsAKeyMadeByPkcs11Tool_proofsVerifyWithGpgSqvAndOurVerify(String tokenType, String keyId, String gpgAlgorithm,
            String ourType, String label) throws IOException {
        ProofModeJar pm = jar("home");

        ProcessResult used = pm.run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", keyId);

        assertThat(used.exitCode()).as(used.describe()).isZero();
        assertThat(used.stdout()).contains("type:        " + ourType, "key id " + keyId + ",");
        String objects = hsm.objects();
        String certificate = objects.substring(objects.indexOf("Certificate Object; type = X.509 cert\n  label:      " + keyId));
        assertThat(certificate.lines().limit(4)).contains("  subject:    DN: CN=" + keyId + ", O=ProofMode",
                "  ID:         " + (tokenType.equals("EC") ? "0a" : "0b"));
        ProofSet proof = ProofSet.prove(pm, TestMedia.jpeg(dir, "photo.jpg", 11));
        Path zip = dir.resolve("bundle.zip");
        ProcessResult exported = pm.run("export", "--with-media", "-o", zip.toString(), proof.media().toString());
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        ProofSet bundle = ProofSet.unzip(zip, dir.resolve("shared"), proof.sha256(), "photo.jpg");
        try (Gpg gpg = Gpg.create(dir)) {
            String fingerprint = Pkcs11KeysIT.assertGpgAndSqvAccept(gpg, bundle, gpgAlgorithm);
            assertThat(Pkcs11KeysIT.fingerprint(used.stdout())).isEqualTo(fingerprint);
        }
        ProcessResult verified = ProofModeJar.at(dir.resolve("stranger")).run("verify", "--trust", bundle.pubkey().toString(), zip.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("TRUSTED", "key storage:      pkcs11: SoftHSM project SoftHSM v2");

        ProcessResult again = jar("again").run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", keyId);
        assertThat(again.exitCode()).as(again.describe()).isZero();
        assertThat(Pkcs11KeysIT.fingerprint(again.stdout())).isEqualTo(Pkcs11KeysIT.fingerprint(used.stdout()));
        String otherName = keyId.equals(label) ? "0a" : label;
        ProcessResult otherwise = jar("otherwise").run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", otherName);
        assertThat(otherwise.exitCode()).as(otherwise.describe()).isEqualTo(37);
        assertThat(otherwise.stderr()).startsWith("proofmode: the key " + otherName + " in the token \"adopt\"")
                .endsWith("already has a certificate, labelled \"" + keyId + "\"; name the key by that label: --key-id " + keyId + "\n");
        assertThat(dir.resolve("otherwise/keys")).doesNotExist();
    }

    @Test
    void use_refusesInOneLine_noSuchKeyInTheToken() {
        ProofModeJar pm = jar("home");

        ProcessResult r = pm.run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", "no-such-key");

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(61);
        assertThat(r.stderr()).startsWith("proofmode: the token \"adopt\" (SoftHSM project SoftHSM v2, serial ")
                .endsWith(" holds no key with ID or label no-such-key (was it deleted from the token?); see the keys it holds with: "
                        + "pkcs11-tool --module " + SoftHsm.MODULE + " --login -O\n");
        assertThat(pm.home().resolve("keys")).doesNotExist();
    }

    @Test
    void use_refusesInOneLine_publicKeyBesideThePrivateKeyIsAnother() {
        keypairgen("EC:prime256v1", "0c", "swapped");
        keypairgen("EC:prime256v1", "0d", "other");
        // the public key under the first key's ID is the second key's
        ProcessResult deleted = hsm.pkcs11Tool("--login", "--pin", PIN, "--delete-object", "--type", "pubkey", "--id", "0c");
        assertThat(deleted.exitCode()).as(deleted.describe()).isZero();
        ProcessResult moved = hsm.pkcs11Tool("--login", "--pin", PIN, "--set-id", "0c", "--type", "pubkey", "--id", "0d");
        assertThat(moved.exitCode()).as(moved.describe()).isZero();
        ProofModeJar pm = jar("home");

        ProcessResult r = pm.run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", "swapped");

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(41);
        assertThat(r.stderr().lines().toList()).as(r.describe()).hasSize(1);
        assertThat(r.stderr()).startsWith("proofmode: the public key the token \"adopt\"").contains(" holds with ID 0c does not belong to the private key swapped");
        assertThat(pm.home().resolve("keys")).doesNotExist();
        String objects = hsm.objects();
        assertThat(objects).doesNotContain("label:      swapped\n  subject:");
    }

    private ProofModeJar jar(String home) {
        return ProofModeJar.at(dir.resolve(home)).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF")).withEnv("PROOFMODE_PIN", PIN);
    }
}
