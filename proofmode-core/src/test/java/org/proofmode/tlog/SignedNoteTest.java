// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** C2SP signed notes and verifier keys. */
class SignedNoteTest {
    /** The example of Go's reference implementation (golang.org/x/mod/sumdb/note, package documentation). */
    private static final String GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    private static final String GO_TEXT = "If you think cryptography is the answer to your problem,\n"
            + "then you don't know what your problem is.\n";
    private static final String GO_NOTE = GO_TEXT + "\n"
            + "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static SignedNote.Signer signer(String name) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        return new SignedNote.Signer(NoteKey.of(name, kp.getPublic()), kp.getPrivate());
    }

    @Test
    void open_trusted_referenceImplementationsExample() throws Exception {
        NoteKey key = NoteKey.parse(GO_VKEY);

        SignedNote.Opened n = SignedNote.open(utf8(GO_NOTE), List.of(key));

        assertThat(key.verifierKey()).isEqualTo(GO_VKEY);
        assertThat(n.text()).isEqualTo(GO_TEXT);
        assertThat(n.verified()).containsExactly(key);
        assertThat(n.trusted()).isTrue();
    }

    @Test
    void open_invalid_textChanged() throws Exception {
        NoteKey key = NoteKey.parse(GO_VKEY);

        SignedNote.Opened n = SignedNote.open(utf8(GO_NOTE.replace("answer", "Answer")), List.of(key));

        assertThat(n.verified()).isEmpty();
        assertThat(n.invalid()).containsExactly(key);
        assertThat(n.trusted()).isFalse();
    }

    @Test
    void open_unknown_signedByAKeyNotTrusted() throws Exception {
        SignedNote.Signer other = signer("PeterNeumann");

        SignedNote.Opened n = SignedNote.open(utf8(GO_NOTE), List.of(other.key()));

        assertThat(n.verified()).isEmpty();
        assertThat(n.invalid()).isEmpty();
        assertThat(n.unknown()).containsExactly("PeterNeumann");
        assertThat(n.trusted()).isFalse();
    }

    @Test
    void sign_opensWithBothKeys_twoSigners() throws Exception {
        SignedNote.Signer a = signer("log.example/a");
        SignedNote.Signer b = signer("witness.example");
        String text = "log.example/a\n3\n" + "A".repeat(43) + "=\n";

        String note = SignedNote.sign(text, List.of(a, b));

        SignedNote.Opened n = SignedNote.open(utf8(note), List.of(a.key(), b.key()));
        assertThat(n.text()).isEqualTo(text);
        assertThat(n.verified()).containsExactly(a.key(), b.key());
        assertThat(NoteKey.parse(a.key().verifierKey())).isEqualTo(a.key());
    }

    @Test
    void open_malformed_notSignedNotes() {
        NoteKey[] none = {};
        for (String bad : List.of(GO_TEXT, GO_TEXT + "\n", GO_TEXT + "\n\u2014 PeterNeumann\n", GO_TEXT + "\n- PeterNeumann AAAAAAAA\n",
                GO_TEXT + "\n\u2014 PeterNeumann !!!!\n", GO_TEXT.replace("\n", "\r\n") + "\n\u2014 a AAAAAAAA\n",
                GO_TEXT + "\n\u2014 PeterNeumann x08go/ZJ=")) {
            assertThatThrownBy(() -> SignedNote.open(utf8(bad), List.of(none))).as(bad).isInstanceOf(NoteFormatException.class);
        }
        assertThatThrownBy(() -> SignedNote.open(new byte[] {'a', '\n', '\n', (byte) 0xC3}, List.of()))
                .isInstanceOf(NoteFormatException.class).hasMessageContaining("UTF-8");
        String many = GO_TEXT + "\n" + ("\u2014 x AAAAAAAA\n".repeat(SignedNote.MAX_SIGNATURES + 1));
        assertThatThrownBy(() -> SignedNote.open(utf8(many), List.of())).hasMessageContaining("more than");
    }

    @Test
    void parse_readsBack_keysWhoseBase64HasPlusSigns() throws Exception {
        int withPlus = 0;
        for (int i = 0; i < 200; i++) {
            NoteKey k = signer("log" + i).key();
            withPlus += k.verifierKey().substring(k.name().length() + 10).contains("+") ? 1 : 0;
            assertThat(NoteKey.parse(k.verifierKey())).isEqualTo(k);
        }
        assertThat(withPlus).as("keys whose base64 has a '+' (about 2 in 5)").isPositive();
    }

    @Test
    void parse_refused_verifierKeysThatDoNotAddUp() {
        for (String bad : List.of("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                "PeterNeumann+c74f20a3+AhpczQcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "PeterNeumann+c74f20a3", "")) {
            assertThatThrownBy(() -> NoteKey.parse(bad)).as(bad).isInstanceOf(NoteFormatException.class);
        }
    }
}
