// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class ScryptStanzaTest {
    private static final char[] PASS = "correct horse battery staple".toCharArray();

    private static byte[] sealWithPassphrase(byte[] plain, int workFactor) {
        return AgeObjects.seal(plain, List.of(ScryptStanza.writer(PASS, workFactor, new SecureRandom())));
    }

    @Test
    void sealedWithPassphrase_opensWithIt_andHeaderIsAgeScrypt() {
        byte[] plain = "a proof record".getBytes(StandardCharsets.UTF_8);
        byte[] sealed = sealWithPassphrase(plain, 10);

        String head = new String(sealed, 0, 60, StandardCharsets.ISO_8859_1);
        assertThat(head).startsWith("age-encryption.org/v1\n-> scrypt ").contains(" 10\n");
        ScryptStanza.Reader r = ScryptStanza.reader(PASS, ScryptStanza.MAX_WORK_FACTOR);
        assertThat(AgeObjects.open(new ByteArrayInputStream(sealed), r, "test")).isEqualTo(plain);
        assertThat(r.wrongPassphrase()).isFalse();
    }

    @Test
    void wrongPassphrase_isKeyLocked() {
        byte[] sealed = sealWithPassphrase(new byte[] {1, 2, 3}, 10);

        ScryptStanza.Reader r = ScryptStanza.reader("wrong".toCharArray(), ScryptStanza.MAX_WORK_FACTOR);
        assertThatThrownBy(() -> AgeObjects.open(new ByteArrayInputStream(sealed), r, "the file"))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED))
                .hasMessage("the file: wrong passphrase");
    }

    @Test
    void workFactorAboveTheReadersLimit_isRefusedBeforeAnyWork() {
        byte[] sealed = sealWithPassphrase(new byte[] {1}, 12);

        assertThatThrownBy(() -> AgeObjects.open(new ByteArrayInputStream(sealed), ScryptStanza.reader(PASS, 11), "f"))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining("work factor 12 above the limit 11");
    }

    @Test
    void scryptStanzaBesideAnother_isRefused() {
        StoreIdentity other = StoreIdentity.generate();
        byte[] sealed = AgeObjects.seal(new byte[] {1}, List.of(ScryptStanza.writer(PASS, 10, new SecureRandom()),
                StoreIdentity.sealer(other.recipient())));

        assertThatThrownBy(() -> AgeObjects.open(new ByteArrayInputStream(sealed), ScryptStanza.reader(PASS, 22), "f"))
                .isInstanceOf(ProofModeException.class)
                .hasMessageContaining("must be the only one");
    }

    @Test
    void identity_protectedWithPassphrase_unlocksToTheSameRecipient_andOpensWhatWasSealedToIt() {
        StoreIdentity id = StoreIdentity.generate();
        byte[] file = id.protect(PASS, 10, Instant.parse("2026-01-02T03:04:05Z"));
        byte[] sealed = AgeObjects.seal("x".getBytes(StandardCharsets.UTF_8), List.of(StoreIdentity.sealer(id.recipient())));

        StoreIdentity back = StoreIdentity.unlock(file, PASS, "identity");

        assertThat(back.recipient()).isEqualTo(id.recipient()).startsWith("age1");
        assertThat(new String(AgeObjects.open(new ByteArrayInputStream(sealed), back.opener(), "o"), StandardCharsets.UTF_8)).isEqualTo("x");
        assertThatThrownBy(() -> StoreIdentity.unlock(file, "nope".toCharArray(), "identity"))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
    }

    @Test
    void identityText_isAgeKeygensForm_andTheRecipientIsComputedNotRead() {
        StoreIdentity id = StoreIdentity.generate();
        String text = new String(id.text(Instant.parse("2026-01-02T03:04:05Z")), StandardCharsets.US_ASCII);

        assertThat(text).startsWith("# created: 2026-01-02T03:04:05Z\n# public key: " + id.recipient() + "\nAGE-SECRET-KEY-1");
        String lying = text.replace(id.recipient(), StoreIdentity.generate().recipient());
        assertThat(StoreIdentity.parse(lying.toCharArray()).recipient()).isEqualTo(id.recipient());
        assertThatThrownBy(() -> StoreIdentity.parse("# nothing\n".toCharArray())).isInstanceOf(ProofModeException.class)
                .hasMessageContaining("no AGE-SECRET-KEY-1 line");
    }
}
