// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.exceptionfactory.jagged.x25519.X25519KeyPairGenerator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class AgeTest {
    @TempDir
    Path tmp;

    /** An identity file as age-keygen writes it: comments, the secret key, a blank line. */
    private Path identityFile(String name, KeyPair pair) throws IOException {
        return Files.writeString(tmp.resolve(name), "# created: 2026-12-05T04:49:04Z\n# public key: " + pair.getPublic()
                + "\n" + pair.getPrivate() + "\n\n");
    }

    private static KeyPair pair() throws Exception {
        return new X25519KeyPairGenerator().generateKeyPair();
    }

    private static byte[] encrypt(byte[] plain, String recipient) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream enc = Age.encryptionTo(List.of(recipient)).encrypting(out)) {
            enc.write(plain);
        }
        return out.toByteArray();
    }

    private static byte[] decrypt(byte[] file, Identities ids) throws IOException {
        try (InputStream in = Age.decrypt(new ByteArrayInputStream(file), ids, "test.age")) {
            return in.readAllBytes();
        }
    }

    @Test
    void roundTrip_manyChunks_andIdentityNamesItsRecipient() throws Exception {
        KeyPair desk = pair();
        byte[] plain = new byte[3 * 65536 + 17];
        new Random(7).nextBytes(plain);
        byte[] file = encrypt(plain, desk.getPublic().toString());
        assertThat(new String(file, 0, Age.HEADER.length(), StandardCharsets.US_ASCII)).isEqualTo(Age.HEADER);
        assertThat(Age.isAge(file, file.length)).isTrue();
        try (Identities ids = Age.readIdentities(List.of(identityFile("desk.key", desk)))) {
            assertThat(ids.recipients()).containsExactly(desk.getPublic().toString());
            assertThat(decrypt(file, ids)).isEqualTo(plain);
        }
    }

    @Test
    void decrypt_triesEveryIdentity() throws Exception {
        KeyPair other = pair();
        KeyPair desk = pair();
        byte[] file = encrypt("bundle".getBytes(StandardCharsets.US_ASCII), desk.getPublic().toString());
        try (Identities ids = Age.readIdentities(List.of(identityFile("a.key", other), identityFile("b.key", desk)))) {
            assertThat(decrypt(file, ids)).asString(StandardCharsets.US_ASCII).isEqualTo("bundle");
        }
    }

    @Test
    void decrypt_failsKeyLocked_forAnotherRecipient() throws Exception {
        byte[] file = encrypt(new byte[10], pair().getPublic().toString());
        try (Identities ids = Age.readIdentities(List.of(identityFile("desk.key", pair())))) {
            assertThatThrownBy(() -> decrypt(file, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> {
                        assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED);
                        assertThat(e.getMessage()).contains("test.age").contains("another recipient").doesNotContain("\n");
                    });
        }
    }

    @Test
    void decrypt_failsBadData_forTruncatedOrFlippedPayload() throws Exception {
        KeyPair desk = pair();
        byte[] plain = new byte[200_000];
        byte[] file = encrypt(plain, desk.getPublic().toString());
        try (Identities ids = Age.readIdentities(List.of(identityFile("desk.key", desk)))) {
            byte[] truncated = Arrays.copyOf(file, file.length - 100);
            assertThatThrownBy(() -> decrypt(truncated, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
            byte[] flipped = file.clone();
            flipped[flipped.length - 5000] ^= 1;
            assertThatThrownBy(() -> decrypt(flipped, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
            byte[] headerOnly = Arrays.copyOf(file, 40);
            assertThatThrownBy(() -> decrypt(headerOnly, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
            byte[] notAge = "PK\3\4 a zip".getBytes(StandardCharsets.US_ASCII);
            assertThatThrownBy(() -> decrypt(notAge, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
        }
    }

    @Test
    void recipient_refusesWhatIsNotOne() throws Exception {
        String good = pair().getPublic().toString();
        assertThat(Age.recipient(" " + good + "\n")).isEqualTo(good);
        String badChecksum = good.substring(0, good.length() - 1) + (good.endsWith("q") ? "p" : "q");
        for (String bad : List.of("age1", "age1xyz", badChecksum, "alice@example.org", "AGE-SECRET-KEY-1QQQ", "")) {
            assertThatThrownBy(() -> Age.recipient(bad)).isInstanceOfSatisfying(ProofModeException.class, e -> {
                assertThat(e.failure()).isEqualTo(Failure.BAD_ARGUMENT);
                assertThat(e.getMessage()).contains("not an age recipient");
            });
        }
    }

    @Test
    void readIdentities_refusesGarbledMissingAndEmptyFiles() throws Exception {
        KeyPair desk = pair();
        String secret = desk.getPrivate().toString();
        Path garbled = Files.writeString(tmp.resolve("garbled.key"), secret.substring(0, secret.length() - 3) + "xyz\n");
        Path other = Files.writeString(tmp.resolve("other.key"), "hello\n");
        Path comments = Files.writeString(tmp.resolve("comments.key"), "# only comments\n\n");
        Path openpgp = Files.writeString(tmp.resolve("key.asc"), "-----BEGIN PGP PUBLIC KEY BLOCK-----\n");
        for (Path bad : List.of(garbled, other, comments, openpgp)) {
            assertThatThrownBy(() -> Age.readIdentities(List.of(bad))).isInstanceOfSatisfying(ProofModeException.class, e -> {
                assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
                assertThat(e.getMessage()).startsWith(bad.toString()).doesNotContain(secret.substring(16));
            });
        }
        assertThatThrownBy(() -> Age.readIdentities(List.of(tmp.resolve("missing.key"))))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.INPUT_MISSING));
        Path crlf = Files.writeString(tmp.resolve("crlf.key"), "# c\r\n" + secret + "\r\n");
        try (Identities ids = Age.readIdentities(List.of(crlf))) {
            assertThat(ids.recipients()).containsExactly(desk.getPublic().toString());
        }
    }
}
