// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.proofmode.keys.KeyFixtures.armored;
import static org.proofmode.keys.KeyFixtures.assertEncrypted;
import static org.proofmode.keys.KeyFixtures.assertPermissions;
import static org.proofmode.keys.KeyFixtures.secretOnDisk;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pgpainless.PGPainless;
import org.pgpainless.decryption_verification.ConsumerOptions;
import org.pgpainless.decryption_verification.DecryptionStream;
import org.proofmode.TestHomes;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.sign.Signed;
import org.proofmode.sign.StreamSigner;

class DeviceKeysTest {
    @TempDir
    Path home;

    private DeviceKeys keys() {
        return new DeviceKeys(home);
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void create_storesEncryptedOwnerOnlyKey_eachKeyType(KeyType type) {
        DeviceKeys.Created c = keys().create(type, Optional.of(TestHomes.passphrase()));

        PGPSecretKeyRing ring = secretOnDisk(keys());
        assertEncrypted(ring);
        assertThat(c.info().algorithm()).isEqualTo(switch (type) {
            case ED25519 -> "ed25519";
            case RSA4096 -> "rsa4096";
            case P256 -> "ecdsa256";
            case RSA3072 -> "rsa3072";
        });
        assertThat(c.info().userId()).isEqualTo(DeviceKeys.USER_ID);
        assertThat(OpenPgpKeys.fingerprint(ring.getPublicKey())).isEqualTo(c.info().fingerprint());
        assertThat(c.generatedPassphraseFile()).isEmpty();
        assertThat(keys().passphraseFile()).doesNotExist();
        assertPermissions(home.resolve("keys"), "rwx------");
        assertPermissions(keys().secretFile(), "rw-------");
        assertPermissions(home.resolve("keys/public"), "rwx------");
        assertThat(keys().unlock(TestHomes.passphrase()).info()).isEqualTo(c.info());
    }

    @Test
    void keyOperations_encryptWithAes256_everyWayAKeyIsStored() {
        Map<String, Set<String>> ciphers = new LinkedHashMap<>();
        keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));
        ciphers.put("create ED25519", KeyFixtures.ciphers(secretOnDisk(keys())));
        ciphers.put("create RSA4096", KeyFixtures.ciphers(secretOnDisk(TestHomes.sharedRsaHome().keys())));
        keys().changePassphrase(TestHomes.passphrase(), Passphrase.adopt("changed".toCharArray()));
        ciphers.put("changePassphrase", KeyFixtures.ciphers(secretOnDisk(keys())));
        keys().rotate(KeyType.ED25519, Optional.empty());
        ciphers.put("rotate", KeyFixtures.ciphers(secretOnDisk(keys())));
        keys().importKey(armored(KeyFixtures.pgpainlessKey()), "plain.asc", Optional.empty(), Optional.empty(), true);
        ciphers.put("importKey unprotected", KeyFixtures.ciphers(secretOnDisk(keys())));
        keys().importKey(armored(KeyFixtures.pgpainlessKey("s")), "locked.asc", Optional.of(Passphrase.adopt("s".toCharArray())),
                Optional.empty(), true);
        ciphers.put("importKey protected", KeyFixtures.ciphers(secretOnDisk(keys())));

        assertThat(ciphers).allSatisfy((operation, used) -> assertThat(used).as(operation).containsExactly("AES_256"));
    }

    @Test
    void create_storesGeneratedPassphraseOwnerOnly_noPassphraseGiven() throws IOException {
        DeviceKeys.Created c = keys().create(KeyType.ED25519, Optional.empty());

        assertThat(c.generatedPassphraseFile()).contains(home.resolve("keys/passphrase"));
        assertPermissions(keys().passphraseFile(), "rw-------");
        String text = Files.readString(keys().passphraseFile(), StandardCharsets.UTF_8);
        assertThat(text).matches("[a-z2-9]{5}(-[a-z2-9]{5}){5}");
        assertThat(keys().unlock(keys().storedPassphrase().orElseThrow()).info()).isEqualTo(c.info());
        assertThat(keys().unlock(Passphrase.read(keys().passphraseFile())).info()).isEqualTo(c.info());
        assertEncrypted(secretOnDisk(keys()));
    }

    @Test
    void create_failsWithOutputExists_keyExists() {
        DeviceKeys.Created first = keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        assertFailure(() -> keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase())), Failure.OUTPUT_EXISTS);
        assertThat(keys().info()).isEqualTo(first.info());
    }

    @Test
    void unlock_failsWithKeyLocked_wrongPassphrase() {
        keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        assertFailure(() -> keys().unlock(Passphrase.adopt("wrong".toCharArray())), Failure.KEY_LOCKED);
    }

    @Test
    void unlock_failsWithInputMissing_noKey() {
        assertFailure(() -> keys().unlock(TestHomes.passphrase()), Failure.INPUT_MISSING);
    }

    @Test
    void changePassphrase_newUnlocksAndOldFails_givenPassphrase() {
        DeviceKeys.Created c = keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        keys().changePassphrase(TestHomes.passphrase(), Passphrase.adopt("new passphrase".toCharArray()));

        assertThat(keys().unlock(Passphrase.adopt("new passphrase".toCharArray())).info()).isEqualTo(c.info());
        assertFailure(() -> keys().unlock(TestHomes.passphrase()), Failure.KEY_LOCKED);
        assertEncrypted(secretOnDisk(keys()));
        assertPermissions(keys().secretFile(), "rw-------");
    }

    @Test
    void changePassphrase_removesGeneratedPassphraseFile_generatedPassphrase() {
        keys().create(KeyType.ED25519, Optional.empty());
        Passphrase generated = keys().storedPassphrase().orElseThrow();
        String generatedText = new String(generated.chars());

        keys().changePassphrase(generated, TestHomes.passphrase());

        assertThat(keys().passphraseFile()).doesNotExist();
        assertThat(keys().storedPassphrase()).isEmpty();
        keys().unlock(TestHomes.passphrase());
        assertFailure(() -> keys().unlock(Passphrase.adopt(generatedText.toCharArray())), Failure.KEY_LOCKED);
    }

    @Test
    void changePassphrase_failsWithKeyLockedAndKeepsKey_wrongOldPassphrase() {
        keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        assertFailure(() -> keys().changePassphrase(Passphrase.adopt("wrong".toCharArray()),
                Passphrase.adopt("new".toCharArray())), Failure.KEY_LOCKED);

        keys().unlock(TestHomes.passphrase());
        assertFailure(() -> keys().unlock(Passphrase.adopt("new".toCharArray())), Failure.KEY_LOCKED);
    }

    @Test
    void rotate_newFingerprintAndKeepsOldPublicKey_existingKey() {
        DeviceKeys.Created old = keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        DeviceKeys.Created fresh = keys().rotate(KeyType.ED25519, Optional.of(Passphrase.adopt("fresh".toCharArray())));

        assertThat(fresh.info().fingerprint()).isNotEqualTo(old.info().fingerprint());
        assertThat(keys().info()).isEqualTo(fresh.info());
        assertThat(fingerprints(keys().allCertificates()))
                .containsExactlyInAnyOrder(old.info().fingerprint(), fresh.info().fingerprint());
        PGPSecretKeyRing onDisk = secretOnDisk(keys());
        assertThat(OpenPgpKeys.fingerprint(onDisk.getPublicKey())).isEqualTo(fresh.info().fingerprint());
        assertThat(onDisk.getSecretKeys()).toIterable().hasSize(1);
        assertEncrypted(onDisk);
        assertThat(keys().unlock(Passphrase.adopt("fresh".toCharArray())).info()).isEqualTo(fresh.info());
        assertFailure(() -> keys().unlock(TestHomes.passphrase()), Failure.KEY_LOCKED);
    }

    @Test
    void importKey_storesEncryptedWithGeneratedPassphrase_unprotectedPgpainlessKey() throws Exception {
        PGPSecretKeyRing imported = KeyFixtures.pgpainlessKey();

        DeviceKeys.Created c = keys().importKey(armored(imported), "imported.asc", Optional.empty(), Optional.empty(), false);

        assertThat(c.info().fingerprint()).isEqualTo(OpenPgpKeys.fingerprint(imported.getPublicKey()));
        assertThat(c.generatedPassphraseFile()).contains(keys().passphraseFile());
        assertPermissions(keys().passphraseFile(), "rw-------");
        assertEncrypted(secretOnDisk(keys()));
        SigningKey key = keys().unlock(keys().storedPassphrase().orElseThrow());
        assertSignsVerifiably(key, PGPainless.extractCertificate(imported));
    }

    @Test
    void importKey_keepsKeyPassphrase_protectedPgpainlessKey() throws Exception {
        PGPSecretKeyRing imported = KeyFixtures.pgpainlessKey("import secret");

        DeviceKeys.Created c = keys().importKey(armored(imported), "imported.asc",
                Optional.of(Passphrase.adopt("import secret".toCharArray())), Optional.empty(), false);

        assertThat(c.generatedPassphraseFile()).isEmpty();
        assertThat(keys().passphraseFile()).doesNotExist();
        assertEncrypted(secretOnDisk(keys()));
        assertSignsVerifiably(keys().unlock(Passphrase.adopt("import secret".toCharArray())), PGPainless.extractCertificate(imported));
    }

    @Test
    void importKey_usesNewPassphrase_protectedKeyAndNewPassphrase() {
        PGPSecretKeyRing imported = KeyFixtures.pgpainlessKey("import secret");

        keys().importKey(armored(imported), "imported.asc", Optional.of(Passphrase.adopt("import secret".toCharArray())),
                Optional.of(TestHomes.passphrase()), false);

        assertThat(keys().unlock(TestHomes.passphrase()).info().fingerprint())
                .isEqualTo(OpenPgpKeys.fingerprint(imported.getPublicKey()));
        assertFailure(() -> keys().unlock(Passphrase.adopt("import secret".toCharArray())), Failure.KEY_LOCKED);
        assertEncrypted(secretOnDisk(keys()));
    }

    @Test
    void importKey_failsWithKeyLocked_protectedKeyWithoutOrWithWrongPassphrase() {
        byte[] imported = armored(KeyFixtures.pgpainlessKey("import secret"));

        assertFailure(() -> keys().importKey(imported, "imported.asc", Optional.empty(), Optional.empty(), false), Failure.KEY_LOCKED);
        assertFailure(() -> keys().importKey(imported, "imported.asc", Optional.of(Passphrase.adopt("wrong".toCharArray())),
                Optional.empty(), false), Failure.KEY_LOCKED);
        assertThat(keys().exists()).isFalse();
    }

    @Test
    void importKey_failsWithUnsupported_rsa1024Key() {
        byte[] weak = armored(KeyFixtures.rsa1024Key());

        assertFailure(() -> keys().importKey(weak, "weak.asc", Optional.empty(), Optional.empty(), false), Failure.UNSUPPORTED);
        assertThat(keys().exists()).isFalse();
        assertThat(home.resolve("keys")).doesNotExist();
    }

    @Test
    void importKey_failsWithUnsupported_sha1OnlySelfSignature() {
        byte[] weak = armored(KeyFixtures.sha1OnlyKey());

        assertFailure(() -> keys().importKey(weak, "sha1.asc", Optional.empty(), Optional.empty(), false), Failure.UNSUPPORTED);
        assertThat(keys().exists()).isFalse();
    }

    @Test
    void passphrase_isOverwritten_whenClosed() {
        char[] secret = "do not keep me".toCharArray();
        try (Passphrase p = Passphrase.adopt(secret)) {
            assertThat(p.chars()).isSameAs(secret);
        }
        assertThat(secret).containsOnly('\0');
    }

    @Test
    void importKey_failsWithBadData_notASecretKey() {
        byte[] random = new byte[300];
        new Random(7).nextBytes(random);
        byte[] publicOnly = PGPainless.asciiArmor(PGPainless.extractCertificate(KeyFixtures.pgpainlessKey()))
                .getBytes(StandardCharsets.UTF_8);
        List<byte[]> garbage = List.of(new byte[0], "not a key".getBytes(StandardCharsets.UTF_8), random,
                "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nAAAA\n-----END PGP PRIVATE KEY BLOCK-----\n".getBytes(StandardCharsets.UTF_8),
                publicOnly);

        for (byte[] g : garbage) {
            assertFailure(() -> keys().importKey(g, "garbage.asc", Optional.empty(), Optional.empty(), false), Failure.BAD_DATA);
        }
        assertThat(keys().exists()).isFalse();
    }

    @Test
    void importKey_failsWithOutputExistsAndKeepsKey_keyExistsWithoutReplace() {
        DeviceKeys.Created existing = keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        assertFailure(() -> keys().importKey(armored(KeyFixtures.pgpainlessKey()), "imported.asc", Optional.empty(),
                Optional.empty(), false), Failure.OUTPUT_EXISTS);

        assertThat(keys().info()).isEqualTo(existing.info());
        assertThat(keys().unlock(TestHomes.passphrase()).info()).isEqualTo(existing.info());
        assertThat(keys().passphraseFile()).doesNotExist();
    }

    @Test
    void importKey_retiresExistingKey_replace() {
        DeviceKeys.Created existing = keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));
        PGPSecretKeyRing imported = KeyFixtures.pgpainlessKey();

        DeviceKeys.Created c = keys().importKey(armored(imported), "imported.asc", Optional.empty(), Optional.empty(), true);

        assertThat(keys().info()).isEqualTo(c.info());
        assertThat(fingerprints(keys().allCertificates())).contains(existing.info().fingerprint(), c.info().fingerprint());
        assertFailure(() -> keys().unlock(TestHomes.passphrase()), Failure.KEY_LOCKED);
    }

    private static List<String> fingerprints(List<PGPPublicKeyRing> certs) {
        return certs.stream().map(c -> OpenPgpKeys.fingerprint(c.getPublicKey())).toList();
    }

    private static void assertSignsVerifiably(SigningKey key, PGPPublicKeyRing cert) throws Exception {
        byte[] data = "proof".getBytes(StandardCharsets.UTF_8);
        Signed s = StreamSigner.sign(key, data, Instant.now());
        DecryptionStream in = PGPainless.decryptAndOrVerify().onInputStream(new ByteArrayInputStream(data)).withOptions(
                ConsumerOptions.get().forceNonOpenPgpData().addVerificationCert(cert)
                        .addVerificationOfDetachedSignatures(new ByteArrayInputStream(s.armoredSignature().getBytes(StandardCharsets.US_ASCII))));
        try (InputStream i = in) {
            i.transferTo(OutputStream.nullOutputStream());
        }
        assertThat(in.getMetadata().getVerifiedDetachedSignatures()).isNotEmpty();
    }

    static void assertFailure(Runnable action, Failure failure) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(ProofModeException.class,
                e -> assertThat(e.failure()).as(e.getMessage()).isEqualTo(failure));
    }
}
