// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The log's canonical entry: one record, one encoding. */
class LogEntryTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private static final String FPR = "0123456789ABCDEF0123456789ABCDEF01234567";

    private static LogEntry intake() {
        return new LogEntry("intake", Optional.of(A), Optional.empty(), List.of(A, B), List.of(FPR), Optional.of("VALID"),
                "2026-12-04T20:00:00.123Z", Optional.of(B));
    }

    @Test
    void encoded_linesInTheirOrder_andReadBack() throws Exception {
        String text = new String(intake().encoded(), StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("proofmode.org/log-entry/v1\nkind intake\nbundle " + A + "\nmedia " + A + "\nmedia " + B
                + "\nsigner " + FPR + "\nverdict VALID\ntime 2026-12-04T20:00:00.123Z\ncustody " + B + "\n");
        assertThat(LogEntry.parse(intake().encoded())).isEqualTo(intake());
        assertThat(intake().leafHash()).isEqualTo(Merkle.leafHash(intake().encoded()));
    }

    @Test
    void parse_refusesEveryOtherForm() {
        String good = new String(intake().encoded(), StandardCharsets.UTF_8);
        List<String> bad = List.of(
                good.replace("proofmode.org/log-entry/v1", "proofmode.org/log-entry/v2"),
                good.substring(0, good.length() - 1),
                good + "\n",
                good + "extra line\n",
                good.replace("kind intake\n", ""),
                good.replace("time 2026-12-04T20:00:00.123Z\n", ""),
                good.replace("media " + A + "\nmedia " + B, "media " + B + "\nmedia " + A),
                good.replace("media " + B, "media " + A),
                good.replace("bundle " + A, "bundle " + A.toUpperCase()),
                good.replace("signer " + FPR, "signer " + FPR.toLowerCase()),
                good.replace("verdict VALID\ntime 2026-12-04T20:00:00.123Z", "time 2026-12-04T20:00:00.123Z\nverdict VALID"),
                good.replace("20:00:00.123Z", "20:00:00Z"),
                good.replace("kind intake", "kind Intake"),
                good.replace("\n", "\r\n"),
                good.replace("kind intake", "kind  intake"));
        for (String b : bad) {
            assertThatThrownBy(() -> LogEntry.parse(b.getBytes(StandardCharsets.UTF_8))).as(b).isInstanceOf(NoteFormatException.class);
        }
    }

    @Property(tries = 200)
    void everyEntry_fitsAnEntryBundle_andReadsBackEqual(@ForAll @IntRange(max = LogEntry.MAX_MEDIA) int media,
            @ForAll @IntRange(max = LogEntry.MAX_MEDIA) int signers) throws Exception {
        List<String> m = new ArrayList<>();
        for (int i = 0; i < media; i++) {
            m.add(String.format("%064x", i));
        }
        List<String> s = new ArrayList<>();
        for (int i = 0; i < signers; i++) {
            s.add(String.format("%064X", i));
        }
        LogEntry e = new LogEntry("notarization-match", Optional.of(A), Optional.of(B), m, s, Optional.of("INCOMPLETE"),
                "2026-12-04T20:00:00.000Z", Optional.of(A));
        assertThat(e.encoded().length).isLessThanOrEqualTo(Tiles.MAX_ENTRY_BYTES);
        assertThat(LogEntry.parse(e.encoded())).isEqualTo(e);
        assertThat(Tiles.readEntryBundle(Tiles.entryBundle(List.of(e.encoded())), 1).get(0)).isEqualTo(e.encoded());
    }

    @Test
    void constructor_refusesMoreThanTheBound() {
        List<String> m = new ArrayList<>();
        for (int i = 0; i <= LogEntry.MAX_MEDIA; i++) {
            m.add(String.format("%064x", i));
        }
        assertThatThrownBy(() -> new LogEntry("intake", Optional.of(A), Optional.empty(), m, List.of(), Optional.empty(),
                "2026-12-04T20:00:00.000Z", Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }
}
