// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** C2SP tlog-proof receipts, checked offline against trusted log keys. */
class TlogProofTest {
    private static final Merkle.LeafHashes LEAVES = TlogProofTest::leaf;

    private static final String ORIGIN = "proofmode.test/log";
    private static final int SIZE = 100;
    private static SignedNote.Signer log;

    @BeforeAll
    static void key() throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        log = new SignedNote.Signer(NoteKey.of(ORIGIN, kp.getPublic()), kp.getPrivate());
    }

    private static byte[] leaf(long i) {
        return Merkle.leafHash(ByteBuffer.allocate(8).putLong(i).array());
    }

    private static byte[] note(SignedNote.Signer by, String origin, long size) {
        return SignedNote.sign(new Checkpoint(origin, size, Merkle.root(size, LEAVES)).text(), List.of(by))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static TlogProof receipt(long index) {
        return new TlogProof(Optional.empty(), index, Merkle.inclusionProof(index, SIZE, LEAVES), note(log, ORIGIN, SIZE));
    }

    @Test
    void check_valid_readBackFromItsText() throws Exception {
        TlogProof p = TlogProof.parse(receipt(42).encoded());

        TlogProof.Result r = p.check(leaf(42), List.of(log.key()));

        assertThat(r.outcome()).as(r.detail()).isEqualTo(TlogProof.Outcome.VALID);
        assertThat(r.checkpoint()).get().extracting(Checkpoint::size).isEqualTo(100L);
        assertThat(new String(receipt(42).encoded(), StandardCharsets.UTF_8)).startsWith("c2sp.org/tlog-proof@v1\nindex 42\n");
    }

    @Test
    void check_invalid_anotherEntry() {
        assertThat(receipt(42).check(leaf(43), List.of(log.key())).outcome()).isEqualTo(TlogProof.Outcome.INVALID);
    }

    @Test
    void check_invalid_checkpointChangedAfterSigning() throws Exception {
        String text = new String(receipt(42).encoded(), StandardCharsets.UTF_8).replace("\n100\n", "\n101\n");

        TlogProof.Result r = TlogProof.parse(text.getBytes(StandardCharsets.UTF_8)).check(leaf(42), List.of(log.key()));

        assertThat(r.outcome()).isEqualTo(TlogProof.Outcome.INVALID);
        assertThat(r.detail()).contains("does not verify");
    }

    @Test
    void check_untrusted_logKeyNotTrustedOrForAnotherOrigin() throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        SignedNote.Signer other = new SignedNote.Signer(NoteKey.of("other.example/log", kp.getPublic()), kp.getPrivate());

        assertThat(receipt(42).check(leaf(42), List.of(other.key())).outcome()).isEqualTo(TlogProof.Outcome.UNTRUSTED);
        // Signed by a trusted key, but one named for another log than the checkpoint's origin.
        TlogProof foreign = new TlogProof(Optional.empty(), 42, Merkle.inclusionProof(42, SIZE, LEAVES),
                note(other, ORIGIN, SIZE));
        assertThat(foreign.check(leaf(42), List.of(other.key())).outcome()).isEqualTo(TlogProof.Outcome.UNTRUSTED);
    }

    @Test
    void check_invalid_indexPastTheCheckpoint() {
        TlogProof p = new TlogProof(Optional.empty(), SIZE, List.of(), note(log, ORIGIN, SIZE));

        assertThat(p.check(leaf(SIZE), List.of(log.key())).outcome()).isEqualTo(TlogProof.Outcome.INVALID);
    }

    @Test
    void parse_extraLine_keptAndNotAuthenticated() throws Exception {
        TlogProof p = new TlogProof(Optional.of(new byte[] {1, 2, 3}), 7, Merkle.inclusionProof(7, SIZE, LEAVES),
                note(log, ORIGIN, SIZE));

        TlogProof back = TlogProof.parse(p.encoded());

        assertThat(back.extra()).get().isEqualTo(new byte[] {1, 2, 3});
        assertThat(new String(p.encoded(), StandardCharsets.UTF_8)).contains("\nextra AQID\nindex 7\n");
        assertThat(back.check(leaf(7), List.of(log.key())).outcome()).isEqualTo(TlogProof.Outcome.VALID);
    }

    @Test
    void parse_refused_notTlogProofs() {
        String hash = "bjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=";
        for (String bad : List.of("c2sp.org/tlog-proof@v2\nindex 1\n\nx\n", "c2sp.org/tlog-proof@v1\nindex 01\n\nx\n",
                "c2sp.org/tlog-proof@v1\n" + hash + "\n\nx\n", "c2sp.org/tlog-proof@v1\nindex 1\nAAAA\n\nx\n",
                "c2sp.org/tlog-proof@v1\nindex 1\n" + hash + "\n", "c2sp.org/tlog-proof@v1\nextra !!\nindex 1\n\nx\n",
                "c2sp.org/tlog-proof@v1\nindex 1\n" + (hash + "\n").repeat(65) + "\nx\n")) {
            assertThatThrownBy(() -> TlogProof.parse(bad.getBytes(StandardCharsets.UTF_8))).as(bad).isInstanceOf(NoteFormatException.class);
        }
    }
}
