// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.proofmode.tlog.Checkpoint;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.Merkle;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.tlog.TlogProof;

/** A receipt beside a proof: trusted, untrusted, damaged, or for other media. */
class TlogChecksTest {
    private static final String MEDIA = "a".repeat(64);
    private static final String SIGNER = "1".repeat(40);
    private static final String OTHER_SIGNER = "2".repeat(40);
    private static SignedNote.Signer log;
    private static SignedNote.Signer stranger;

    @BeforeAll
    static void keys() throws Exception {
        log = signer("desk.example/log");
        stranger = signer("desk.example/log");
    }

    private static SignedNote.Signer signer(String name) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        return new SignedNote.Signer(NoteKey.of(name, kp.getPublic()), kp.getPrivate());
    }

    private static LogEntry entry(String media, int n) {
        return entry(media, n, List.of(SIGNER));
    }

    private static LogEntry entry(String media, int n, List<String> signers) {
        return new LogEntry("intake", Optional.of(String.format("%064x", n)), Optional.empty(), List.of(media), signers,
                Optional.of("VALID"), "2026-12-04T20:00:00.000Z", Optional.of("b".repeat(64)));
    }

    /** A receipt for entry 3 of a log of 7, entry 3 naming {@code media}, signed by {@code by}. */
    private static byte[] receipt(String media, SignedNote.Signer by, boolean withEntry) {
        return receipt(media, by, withEntry, List.of(SIGNER));
    }

    private static byte[] receipt(String media, SignedNote.Signer by, boolean withEntry, List<String> signers) {
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            leaves.add(entry(i == 3 ? media : "c".repeat(64), i, signers).leafHash());
        }
        Merkle.LeafHashes hashes = i -> leaves.get((int) i);
        String note = SignedNote.sign(new Checkpoint(by.key().name(), 7, Merkle.root(7, hashes)).text(), List.of(by));
        return new TlogProof(withEntry ? Optional.of(entry(media, 3, signers).encoded()) : Optional.empty(), 3,
                Merkle.inclusionProof(3, 7, hashes), note.getBytes(StandardCharsets.UTF_8)).encoded();
    }

    private static Check check(byte[] receipt) {
        return TlogChecks.receipt("x.tlog", receipt, Optional.of(MEDIA), Optional.of(SIGNER), List.of(log.key()), 0);
    }

    @Test
    void receipt_otherProof_whenTheEntryNamesAnotherSignerOrNone() {
        for (List<String> signers : List.of(List.of(OTHER_SIGNER), List.<String>of())) {
            Check c = check(receipt(MEDIA, log, true, signers));
            assertThat(c.code()).as(c.message()).isEqualTo(CheckCodes.TLOG_ENTRY_OTHER_PROOF);
            assertThat(c.status()).isEqualTo(Status.FAIL);
            assertThat(c.message()).contains("another proof of this media").doesNotContain("2026-12-04T20:00:00.000Z")
                    .doesNotContain("logged at");
        }
        // A signer in lower case, as a record may spell it, is the same key.
        Check lower = TlogChecks.receipt("x.tlog", receipt(MEDIA, log, true, List.of("ABCDEF" + "0".repeat(34))), Optional.of(MEDIA),
                Optional.of("abcdef" + "0".repeat(34)), List.of(log.key()), 0);
        assertThat(lower.code()).isEqualTo(CheckCodes.TLOG_INCLUSION_VALID);
        // A proof whose signature did not verify has no signer to match the entry with.
        Check unsigned = TlogChecks.receipt("x.tlog", receipt(MEDIA, log, true), Optional.of(MEDIA), Optional.empty(), List.of(log.key()), 0);
        assertThat(unsigned.code()).isEqualTo(CheckCodes.TLOG_ENTRY_OTHER_PROOF);
        assertThat(unsigned.message()).contains("no valid signature");
    }

    /** The receipt with the witnesses' cosignatures added to its checkpoint. */
    private static byte[] cosigned(byte[] receipt, SignedNote.Signer... witnesses) throws Exception {
        TlogProof p = TlogProof.parse(receipt);
        String note = new String(p.checkpoint(), StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(note);
        for (SignedNote.Signer w : witnesses) {
            b.append(SignedNote.cosign(SignedNote.text(note), w, 1_780_000_000L));
        }
        return new TlogProof(p.extra(), p.index(), p.hashes(), b.toString().getBytes(StandardCharsets.UTF_8)).encoded();
    }

    private static SignedNote.Signer witness(String name) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        return new SignedNote.Signer(NoteKey.cosigner(name, kp.getPublic()), kp.getPrivate());
    }

    @Test
    void receipt_witnessesInsufficient_whenFewerTrustedWitnessesCosignedThanRequired() throws Exception {
        SignedNote.Signer w1 = witness("w1.example/w");
        SignedNote.Signer w2 = witness("w2.example/w");
        SignedNote.Signer unknown = witness("w3.example/w");
        List<NoteKey> keys = List.of(log.key(), w1.key(), w2.key());
        byte[] two = cosigned(receipt(MEDIA, log, true), w1, w2, unknown);
        byte[] one = cosigned(receipt(MEDIA, log, true), w1, unknown);

        assertThat(TlogChecks.receipt("x.tlog", two, Optional.of(MEDIA), Optional.of(SIGNER), keys, 2).code())
                .isEqualTo(CheckCodes.TLOG_INCLUSION_VALID);
        Check short1 = TlogChecks.receipt("x.tlog", one, Optional.of(MEDIA), Optional.of(SIGNER), keys, 2);
        assertThat(short1.code()).as(short1.message()).isEqualTo(CheckCodes.TLOG_WITNESSES_INSUFFICIENT);
        assertThat(short1.status()).isEqualTo(Status.FAIL);
        assertThat(short1.message()).contains("cosigned by 1 trusted witnesses", "--require-witnesses asks for 2");
        assertThat(TlogChecks.receipt("x.tlog", one, Optional.of(MEDIA), Optional.of(SIGNER), keys, 0).code())
                .isEqualTo(CheckCodes.TLOG_INCLUSION_VALID);
        // Cosignatures of a checkpoint no trusted log signed do not count.
        Check untrusted = TlogChecks.receipt("x.tlog", cosigned(receipt(MEDIA, stranger, true), w1, w2), Optional.of(MEDIA),
                Optional.of(SIGNER), keys, 1);
        assertThat(untrusted.code()).isEqualTo(CheckCodes.TLOG_WITNESSES_INSUFFICIENT);
        assertThat(TlogChecks.noReceipt("abc", 1).code()).isEqualTo(CheckCodes.TLOG_WITNESSES_INSUFFICIENT);
    }

    @Test
    void receipt_valid_whenTheEntryNamesThisSignerAmongOthers() {
        Check c = check(receipt(MEDIA, log, true, List.of(SIGNER, OTHER_SIGNER)));
        assertThat(c.code()).isEqualTo(CheckCodes.TLOG_INCLUSION_VALID);
    }

    @Test
    void trustedLog_thisMedia_valid() {
        Check c = check(receipt(MEDIA, log, true));
        assertThat(c.code()).isEqualTo(CheckCodes.TLOG_INCLUSION_VALID);
        assertThat(c.status()).isEqualTo(Status.PASS);
        assertThat(c.message()).contains("entry 3 of 7 in desk.example/log", "intake of bundle", "verified VALID", "2026-12-04T20:00:00.000Z");
    }

    @Test
    void anotherKeyOfTheSameName_untrusted_aWarning() {
        Check c = check(receipt(MEDIA, stranger, true));
        assertThat(c.code()).isEqualTo(CheckCodes.TLOG_INCLUSION_UNTRUSTED);
        assertThat(c.status()).isEqualTo(Status.WARN);
    }

    @Test
    void otherMediaDamageOrNoEntry_invalid() {
        String good = new String(receipt(MEDIA, log, true), StandardCharsets.UTF_8);
        List<byte[]> bad = List.of(
                receipt("d".repeat(64), log, true),
                receipt(MEDIA, log, false),
                good.replace("index 3", "index 2").getBytes(StandardCharsets.UTF_8),
                good.replace("index 3", "index 9").getBytes(StandardCharsets.UTF_8),
                good.replace("\n7\n", "\n8\n").getBytes(StandardCharsets.UTF_8),
                good.replaceFirst("extra [A-Za-z0-9+/=]+", "extra " + java.util.Base64.getEncoder().encodeToString(
                        entry(MEDIA, 4).encoded())).getBytes(StandardCharsets.UTF_8),
                "not a receipt".getBytes(StandardCharsets.UTF_8),
                new byte[0]);
        for (byte[] b : bad) {
            Check c = check(b);
            assertThat(c.code()).as(c.message()).isEqualTo(CheckCodes.TLOG_INCLUSION_INVALID);
            assertThat(c.status()).isEqualTo(Status.FAIL);
        }
        assertThat(check(receipt("d".repeat(64), log, true)).message()).contains("names other media");
    }
}
