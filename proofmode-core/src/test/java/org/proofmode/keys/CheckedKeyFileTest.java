// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.keys.KeyFixtures.armored;
import static org.proofmode.keys.KeyFixtures.assertPermissions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgpainless.PGPainless;
import org.pgpainless.algorithm.KeyFlag;
import org.proofmode.TestHomes;
import org.proofmode.media.Digests;

class CheckedKeyFileTest {
    @TempDir
    Path home;

    private DeviceKeys keys() {
        return new DeviceKeys(home);
    }

    private Path note() {
        return home.resolve("keys").resolve(CheckedKeyFile.FILE);
    }

    @Test
    void unlock_notesCheckedKeyFileOwnerOnly_firstUnlock() throws IOException {
        keys().create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));

        SigningKey key = keys().unlock(TestHomes.passphrase());

        String text = Files.readString(note());
        assertThat(text).contains("sha256=" + Digests.sha256Hex(Files.readAllBytes(keys().secretFile())))
                .contains("signingKey=" + HexFormat.of().toHexDigits(key.signingPublicKey().getKeyID())).contains("expires=never");
        assertPermissions(note(), "rw-------");
    }

    @Test
    void unlock_describesKeyFromNoteAsFullCheckDoes_secondUnlock() throws IOException {
        PGPSecretKeyRing ring = KeyFixtures.pgpainlessKey();
        keys().importKey(armored(ring), "imported.asc", Optional.of(TestHomes.passphrase()), Optional.empty(), false);

        KeyInfo first = keys().unlock(TestHomes.passphrase()).info();
        assertThat(Files.readString(note())).contains("userId=" + HexFormat.of().formatHex(first.userId().getBytes(StandardCharsets.UTF_8)));
        KeyInfo second = keys().unlock(TestHomes.passphrase()).info();

        assertThat(first.userId()).isNotEmpty();
        assertThat(second).isEqualTo(first).isEqualTo(OpenPgpKeys.describe(ring));
    }

    @Test
    void unlock_takesSigningKeyFromNote_noteForTheseBytes() throws IOException {
        PGPSecretKeyRing ring = KeyFixtures.pgpainlessKey();
        keys().importKey(armored(ring), "imported.asc", Optional.of(TestHomes.passphrase()), Optional.empty(), false);
        PGPPublicKey signing = PGPainless.inspectKeyRing(ring).getSigningSubkeys().get(0);
        PGPPublicKey other = PGPainless.inspectKeyRing(ring).getEncryptionSubkeys(org.pgpainless.algorithm.EncryptionPurpose.ANY).get(0);
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).isEqualTo(signing.getKeyID());

        // a note is believed for the bytes it names: pointed at another key of the ring, that key is used
        writeNote(keys().secretFile(), other.getKeyID(), Optional.empty());
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).isEqualTo(other.getKeyID());
    }

    @Test
    void unlock_checksInFullAndRewritesNote_noteForOtherBytesExpiredOrUnknownKey() throws IOException {
        PGPSecretKeyRing ring = KeyFixtures.pgpainlessKey();
        keys().importKey(armored(ring), "imported.asc", Optional.of(TestHomes.passphrase()), Optional.empty(), false);
        long signing = PGPainless.inspectKeyRing(ring).getSigningSubkeys().get(0).getKeyID();
        long other = PGPainless.inspectKeyRing(ring).getEncryptionSubkeys(org.pgpainless.algorithm.EncryptionPurpose.ANY).get(0).getKeyID();

        String otherBytes = "sha256=" + "0".repeat(64);
        writeNote(keys().secretFile(), other, Optional.empty());
        Files.writeString(note(), Files.readString(note()).replaceFirst("sha256=[0-9a-f]{64}", otherBytes));
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).as("note for other bytes").isEqualTo(signing);

        writeNote(keys().secretFile(), other, Optional.of(Instant.now().minusSeconds(60)));
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).as("note past its expiry").isEqualTo(signing);

        writeNote(keys().secretFile(), 0x1234L, Optional.empty());
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).as("note naming no key of the ring")
                .isEqualTo(signing);
        assertThat(Files.readString(note())).contains("signingKey=" + HexFormat.of().toHexDigits(signing));

        Files.writeString(note(), "garbage\n");
        assertThat(keys().unlock(TestHomes.passphrase()).signingPublicKey().getKeyID()).as("unreadable note").isEqualTo(signing);
    }

    @Test
    void unlock_notesExpiryOfSigningKey_expiringKey() throws IOException {
        Instant in = Instant.now().plusSeconds(86_400L * 30);
        PGPSecretKeyRing ring = PGPainless.modifyKeyRing(KeyFixtures.pgpainlessKey())
                .setExpirationDate(java.util.Date.from(in), org.pgpainless.key.protection.SecretKeyRingProtector.unprotectedKeys()).done();
        keys().importKey(armored(ring), "expiring.asc", Optional.of(TestHomes.passphrase()), Optional.empty(), false);

        keys().unlock(TestHomes.passphrase());

        assertThat(Files.readString(note())).contains("expires=" + in.getEpochSecond());
        assertThat(PGPainless.inspectKeyRing(ring).getExpirationDateForUse(KeyFlag.SIGN_DATA)).isNotNull();
    }

    @Test
    void decode_rejectsMalformedOrOtherVersion_badNotes() {
        String good = new CheckedKeyFile.Note("a".repeat(64), 42L, Optional.empty(), "Device <d@example.org>\nline two").encode();
        assertThat(CheckedKeyFile.Note.decode(good)).map(CheckedKeyFile.Note::userId).contains("Device <d@example.org>\nline two");
        assertThat(CheckedKeyFile.Note.decode(good.replace("version=2", "version=1"))).isEmpty();
        assertThat(CheckedKeyFile.Note.decode(good.replaceAll("userId=[0-9a-f]*", "userId=ff"))).isEmpty();
        assertThat(CheckedKeyFile.Note.decode(good.replaceAll("userId=[0-9a-f]*\n", ""))).isEmpty();
        assertThat(CheckedKeyFile.Note.decode(good.replace("expires=never", "expires=soon"))).isEmpty();
        assertThat(CheckedKeyFile.Note.decode(good.replace("a".repeat(64), "xyz"))).isEmpty();
        assertThat(CheckedKeyFile.Note.decode("")).isEmpty();
    }

    private void writeNote(Path keyFile, long keyId, Optional<Instant> expires) throws IOException {
        String sha = Digests.sha256Hex(Files.readAllBytes(keyFile));
        Files.write(note(), new CheckedKeyFile.Note(sha, keyId, expires, DeviceKeys.USER_ID).encode().getBytes(StandardCharsets.US_ASCII));
    }
}
