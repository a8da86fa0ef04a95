// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.exceptionfactory.jagged.FileKey;
import com.exceptionfactory.jagged.RecipientStanza;
import com.exceptionfactory.jagged.bech32.Bech32;
import com.exceptionfactory.jagged.x25519.X25519KeyPairGenerator;
import com.exceptionfactory.jagged.x25519.X25519RecipientStanzaReaderFactory;
import java.io.ByteArrayInputStream;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The X25519 stanza written here, read by jagged's independent X25519 reader (and, in the CLI's
 * {@code EncryptedStoreIT} and {@code EncryptedSharingTest}, by the {@code age} tool itself).
 */
class X25519StanzaTest {
    private static KeyPair pair() throws GeneralSecurityException {
        return new X25519KeyPairGenerator().generateKeyPair();
    }

    @Property(tries = 30)
    void objectsSealedHere_openWithJaggedsReader(@ForAll @Size(max = 70_000) byte[] plain) throws Exception {
        KeyPair store = pair();
        byte[] sealed = AgeObjects.seal(plain, List.of(X25519Stanza.writer(store.getPublic().toString())));

        byte[] opened = AgeObjects.open(new ByteArrayInputStream(sealed),
                X25519RecipientStanzaReaderFactory.newRecipientStanzaReader(CharBuffer.wrap(store.getPrivate().toString())), "test");

        assertThat(opened).isEqualTo(plain);
    }

    @Test
    void eachStanza_hasAFreshEphemeralShare_andOnlyTheRecipientOpensIt() throws Exception {
        KeyPair store = pair();
        KeyPair other = pair();
        var writer = X25519Stanza.writer(store.getPublic().toString());
        FileKey fileKey = new FileKey();
        List<String> shares = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (RecipientStanza s : writer.getRecipientStanzas(fileKey)) {
                assertThat(s.getType()).isEqualTo("X25519");
                assertThat(s.getArguments()).hasSize(1);
                assertThat(s.getBody()).hasSize(32);
                shares.add(s.getArguments().get(0));
            }
        }
        assertThat(shares).doesNotHaveDuplicates();
        byte[] sealed = AgeObjects.seal("x".getBytes(StandardCharsets.US_ASCII), List.of(writer));
        assertThatThrownBy(() -> AgeObjects.open(new ByteArrayInputStream(sealed),
                X25519RecipientStanzaReaderFactory.newRecipientStanzaReader(CharBuffer.wrap(other.getPrivate().toString())), "test"))
                .hasMessageContaining("test: damaged age object");
    }

    @Test
    void recipient_isCheckedAsAgeDoes() throws Exception {
        String good = pair().getPublic().toString();
        assertThat(X25519Stanza.publicKey(good)).hasSize(32);
        assertThat(X25519Stanza.publicKey(good.toUpperCase(Locale.ROOT))).isEqualTo(X25519Stanza.publicKey(good));
        String flipped = good.substring(0, 10) + (good.charAt(10) == 'q' ? 'p' : 'q') + good.substring(11);
        assertThatThrownBy(() -> X25519Stanza.publicKey(flipped)).isInstanceOf(GeneralSecurityException.class);
        assertThatThrownBy(() -> X25519Stanza.publicKey("age1" + good.substring(4, 20).toUpperCase(Locale.ROOT) + good.substring(20)))
                .hasMessageContaining("mixed-case");
        byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        String otherPart = Bech32.getEncoder().encode("agx", key).toString();
        assertThatThrownBy(() -> X25519Stanza.publicKey(otherPart)).hasMessageContaining("age1");
        String shortKey = Bech32.getEncoder().encode("age", new byte[31]).toString();
        assertThatThrownBy(() -> X25519Stanza.publicKey(shortKey)).hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> X25519Stanza.publicKey("not a recipient")).isInstanceOf(GeneralSecurityException.class);
    }

    @Test
    void aLowOrderRecipient_isRefused_asTheSpecificationRequires() throws Exception {
        String zero = Bech32.getEncoder().encode("age", new byte[32]).toString();
        var writer = X25519Stanza.writer(zero);

        assertThatThrownBy(() -> writer.getRecipientStanzas(new FileKey())).isInstanceOf(GeneralSecurityException.class)
                .hasMessageContaining("low-order");
    }
}
