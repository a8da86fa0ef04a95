// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.util.List;

/**
 * Fuzz targets for the transparency-log readers of what a log server or a stranger sends: signed notes,
 * checkpoints, receipts, verifier keys, log entries and a witness's add-checkpoint requests. Each accepts only its documented outcome: a result, or
 * {@link NoteFormatException}. In a normal build these replay the seeds in
 * {@code TlogFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class TlogFuzzTest {
    private static final NoteKey KEY;
    private static final Witness WITNESS;
    private static final Path STATE;

    static {
        try {
            KEY = NoteKey.parse("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW");
            KeyPair w = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            STATE = Files.createTempDirectory("witness-fuzz");
            WITNESS = new Witness(new SignedNote.Signer(NoteKey.cosigner("fuzz.example/w", w.getPublic()), w.getPrivate()),
                    List.of(KEY), STATE, Clock.systemUTC());
        } catch (NoteFormatException | GeneralSecurityException | IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @FuzzTest(maxDuration = "2m")
    void signedCheckpoint(byte[] data) {
        try {
            SignedNote.Opened n = SignedNote.open(data, List.of(KEY));
            assertThat(n.text()).endsWith("\n");
            assertThat(n.verified().size() + n.invalid().size() + n.unknown().size()).isPositive();
            Checkpoint c = Checkpoint.parse(n.text());
            assertThat(Checkpoint.parse(c.text()).text()).isEqualTo(c.text());
        } catch (NoteFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void receipt(byte[] data) {
        try {
            TlogProof p = TlogProof.parse(data);
            assertThat(TlogProof.parse(p.encoded()).index()).isEqualTo(p.index());
            assertThat(p.check(Merkle.leafHash(data), List.of(KEY)).outcome()).isNotNull();
        } catch (NoteFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void verifierKey(byte[] data) {
        try {
            NoteKey k = NoteKey.parse(new String(data, StandardCharsets.UTF_8));
            assertThat(NoteKey.parse(k.verifierKey())).isEqualTo(k);
        } catch (NoteFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void logEntry(byte[] data) {
        try {
            LogEntry e = LogEntry.parse(data);
            assertThat(e.encoded()).isEqualTo(data);
        } catch (NoteFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    /** A witness answers every request with one of the statuses its protocol names, never an exception. */
    @FuzzTest(maxDuration = "2m")
    void witnessRequest(byte[] data) {
        Witness.Answer a = WITNESS.addCheckpoint(data);
        assertThat(a.status()).isIn(200, 400, 403, 404, 409, 422);
        assertThat(a.body()).endsWith("\n");
    }
}
