// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzz targets for the transparency-log readers of what a log server or a stranger sends: signed notes,
 * checkpoints, receipts and verifier keys. Each accepts only its documented outcome: a result, or
 * {@link NoteFormatException}. In a normal build these replay the seeds in
 * {@code TlogFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class TlogFuzzTest {
    private static final NoteKey KEY;

    static {
        try {
            KEY = NoteKey.parse("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW");
        } catch (NoteFormatException e) {
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
}
