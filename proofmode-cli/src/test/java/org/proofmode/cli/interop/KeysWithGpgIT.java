// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.Gpg.KeyAlgorithm;
import org.proofmode.testkit.ProcessResult;

/**
 * Device keys and GnuPG: secret keys made by gpg can be imported and then sign proofs that gpg verifies
 * with its own public key; weak keys are refused; and the key files we store are what gpg reads as
 * encrypted keys. The gpg keys are generated once for the class.
 */
class KeysWithGpgIT {
    private static final String GPG_PASSPHRASE = "gpg passphrase 42";

    @TempDir
    static Path classDir;

    private static Gpg gpg;
    private static String unprotectedKey;
    private static String protectedKey;
    private static String weakKey;

    @TempDir
    Path dir;

    @BeforeAll
    static void generateKeys() {
        gpg = Gpg.create(classDir);
        unprotectedKey = gpg.generateKey("Unprotected <unprotected@example.org>", KeyAlgorithm.ED25519);
        protectedKey = gpg.generateKey("Protected <protected@example.org>", KeyAlgorithm.RSA4096, GPG_PASSPHRASE);
        weakKey = gpg.generateKey("Weak <weak@example.org>", KeyAlgorithm.RSA1024);
    }

    @AfterAll
    static void stopAgent() {
        if (gpg != null) {
            gpg.close();
        }
    }

    @Test
    void keysImport_thenProofVerifiesWithGpgPublicKey_unprotectedGpgKey() throws IOException {
        Path secret = dir.resolve("secret.asc");
        gpg.exportSecretKey(unprotectedKey, "", secret);
        ProofModeJar pm = ProofModeJar.withoutPassphrase(dir.resolve("home"));

        ProcessResult imported = pm.run("keys", "import", secret.toString());
        assertThat(imported.exitCode()).as(imported.describe()).isZero();
        assertThat(imported.stdout()).contains("fingerprint: " + unprotectedKey);
        assertThat(listPackets(pm.home().resolve("keys/secret.asc")))
                .as("the unprotected key is stored encrypted").contains("iter+salt S2K", "[v4 protected]");

        ProofSet proof = ProofSet.prove(pm, TestMedia.jpeg(dir, "photo.jpg", 5));
        assertSignedByGpgKey(proof, unprotectedKey);
    }

    @Test
    void keysImport_thenProofVerifiesWithGpgPublicKey_passphraseProtectedGpgKey() throws IOException {
        Path secret = dir.resolve("secret.asc");
        gpg.exportSecretKey(protectedKey, GPG_PASSPHRASE, secret);
        assertThat(listPackets(secret)).contains("[v4 protected]");
        Path passphraseFile = Files.writeString(dir.resolve("pass.txt"), GPG_PASSPHRASE + "\n");
        ProofModeJar pm = ProofModeJar.withoutPassphrase(dir.resolve("home"));

        ProcessResult imported = pm.run("keys", "import", "--key-passphrase-file", passphraseFile.toString(), secret.toString());
        assertThat(imported.exitCode()).as(imported.describe()).isZero();
        assertThat(imported.stdout()).contains("fingerprint: " + protectedKey, "type:        rsa4096");

        ProofSet proof = ProofSet.prove(pm.withPassphrase(GPG_PASSPHRASE), TestMedia.jpeg(dir, "photo.jpg", 6));
        assertSignedByGpgKey(proof, protectedKey);
    }

    @Test
    void keysImport_exits67_wrongGpgKeyPassphrase() throws IOException {
        Path secret = dir.resolve("secret.asc");
        gpg.exportSecretKey(protectedKey, GPG_PASSPHRASE, secret);
        Path wrong = Files.writeString(dir.resolve("pass.txt"), "not the passphrase\n");

        ProcessResult r = ProofModeJar.withoutPassphrase(dir.resolve("home"))
                .run("keys", "import", "--key-passphrase-file", wrong.toString(), secret.toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(67);
        assertThat(dir.resolve("home/keys/secret.asc")).doesNotExist();
    }

    @Test
    void keysImport_exits13Unsupported_rsa1024GpgKey() throws IOException {
        Path secret = dir.resolve("weak.asc");
        gpg.exportSecretKey(weakKey, "", secret);

        ProcessResult r = ProofModeJar.withoutPassphrase(dir.resolve("home")).run("keys", "import", secret.toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(13);
        assertThat(r.stderr()).contains("too weak");
        assertThat(dir.resolve("home/keys/secret.asc")).doesNotExist();
    }

    @Test
    void keysImport_thenProveUnlocksWithEnvPassphrase_unprotectedGpgKeyWhilePassphraseSet() throws IOException {
        Path secret = dir.resolve("secret.asc");
        gpg.exportSecretKey(unprotectedKey, "", secret);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));

        ProcessResult imported = pm.run("keys", "import", secret.toString());
        assertThat(imported.exitCode()).as(imported.describe()).isZero();

        ProofSet proof = ProofSet.prove(pm, TestMedia.jpeg(dir, "photo.jpg", 7));
        assertSignedByGpgKey(proof, unprotectedKey);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "rsa4096"})
    void keysCreate_storesKeyAes256Encrypted_newDeviceKey(String keyType) {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        ProcessResult help = pm.run("help", "keys");
        assertThat(help.stdout()).as(help.describe()).contains("(AES-256, iterated and salted S2K)");

        ProcessResult created = pm.run("keys", "create", "--key-type", keyType);
        assertThat(created.exitCode()).as(created.describe()).isZero();

        assertThat(listPackets(pm.home().resolve("keys/secret.asc"))).contains("iter+salt S2K, algo: 9,");
    }

    /** Checks the three signatures with gpg's own export of the key, in a fresh GnuPG home. */
    private void assertSignedByGpgKey(ProofSet proof, String fingerprint) {
        Path gpgPublic = dir.resolve("gpg-public.asc");
        gpg.exportPublicKey(fingerprint, gpgPublic);
        try (Gpg fresh = Gpg.create(dir)) {
            assertThat(fresh.fingerprintsOf(proof.pubkey())).containsExactly(fingerprint);
            fresh.importKey(gpgPublic);
            for (ProofSet.Signed s : proof.signed()) {
                ProcessResult r = fresh.verify(s.signature(), s.data());
                assertThat(r.exitCode()).as(s.subject() + ": " + r.describe()).isZero();
                assertThat(r.stderr()).contains("Good signature", fingerprint);
            }
        }
    }

    private String listPackets(Path file) {
        ProcessResult r = gpg.run("--list-packets", file.toString());
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout();
    }
}
