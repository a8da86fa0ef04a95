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
        return new LogEntry("intake", Optional.of(String.format("%064x", n)), Optional.empty(), List.of(media), List.of(),
                Optional.of("VALID"), "2026-12-04T20:00:00.000Z", Optional.of("b".repeat(64)));
    }

    /** A receipt for entry 3 of a log of 7, entry 3 naming {@code media}, signed by {@code by}. */
    private static byte[] receipt(String media, SignedNote.Signer by, boolean withEntry) {
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            leaves.add(entry(i == 3 ? media : "c".repeat(64), i).leafHash());
        }
        Merkle.LeafHashes hashes = i -> leaves.get((int) i);
        String note = SignedNote.sign(new Checkpoint(by.key().name(), 7, Merkle.root(7, hashes)).text(), List.of(by));
        return new TlogProof(withEntry ? Optional.of(entry(media, 3).encoded()) : Optional.empty(), 3,
                Merkle.inclusionProof(3, 7, hashes), note.getBytes(StandardCharsets.UTF_8)).encoded();
    }

    private static Check check(byte[] receipt) {
        return TlogChecks.receipt("x.tlog", receipt, Optional.of(MEDIA), List.of(log.key()));
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
