// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;

class TimestampQueueTest {
    private static final String H = "ab".repeat(32);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path tmp;

    @Test
    void backoff_doublesFromOneMinute_cappedAtOneHour() {
        assertThat(TimestampQueue.backoff(1)).isEqualTo(Duration.ofMinutes(1));
        assertThat(TimestampQueue.backoff(2)).isEqualTo(Duration.ofMinutes(2));
        assertThat(TimestampQueue.backoff(6)).isEqualTo(Duration.ofMinutes(32));
        assertThat(TimestampQueue.backoff(7)).isEqualTo(Duration.ofHours(1));
        assertThat(TimestampQueue.backoff(1000)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void add_survivesReopen_andWidensExistingRequest() {
        Path dir = tmp.resolve("queue");
        new TimestampQueue(dir).add(H, tmp.resolve("p"), List.of(URI.create("http://tsa.example/tsr")), List.of(), T0, "down");
        QueuedStamp q = new TimestampQueue(dir).add(H, tmp.resolve("p"), List.of(), List.of(URI.create("http://cal.example")),
                T0.plusSeconds(10), "still down");
        assertThat(q.attempts()).isEqualTo(2);
        assertThat(q.nextTry()).isEqualTo(T0.plusSeconds(10).plus(Duration.ofMinutes(2)));
        QueuedStamp back = new TimestampQueue(dir).get(H).orElseThrow();
        assertThat(back).isEqualTo(q);
        assertThat(back.tsaUrls()).containsExactly(URI.create("http://tsa.example/tsr"));
        assertThat(back.calendars()).containsExactly(URI.create("http://cal.example"));
        assertThat(back.queuedAt()).isEqualTo(T0);
    }

    @Test
    void list_throwsBadData_forCorruptFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("queue"));
        Files.writeString(dir.resolve(H + ".json"), "{not json");
        assertThatThrownBy(() -> new TimestampQueue(dir).list()).isInstanceOf(ProofModeException.class)
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining(H + ".json: not a queued timestamp request (Unexpected character")
                .satisfies(e -> assertThat(e.getMessage()).as("one line on stderr").doesNotContain("\n"));
    }

    @Test
    void stamp_queuesAndSyncBacksOff_whenServiceUnreachable() throws Exception {
        URI closed = TestHomes.unreachableUrl("/tsr");
        Path folder = Files.createDirectories(tmp.resolve("proofs").resolve(H));
        Files.writeString(folder.resolve(H + ".asc"), "sig");
        TimestampQueue queue = new TimestampQueue(tmp.resolve("queue"));
        Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        Timestamps ts = new Timestamps(new TimestampSettings(List.of(), List.of(closed), Http.Timeouts.DEFAULT), queue, List.of(), clock);

        List<StampResult> r = ts.stamp(folder, H, new StampRequest(List.of(closed), List.of(closed)));
        assertThat(r).extracting(StampResult::outcome).containsExactly(StampResult.Outcome.QUEUED, StampResult.Outcome.QUEUED);
        assertThat(folder.resolve(H + ".tsr")).doesNotExist();
        QueuedStamp q = queue.get(H).orElseThrow();
        assertThat(q.tsaUrls()).containsExactly(closed);
        assertThat(q.calendars()).containsExactly(closed);

        assertThat(ts.sync(false)).as("not due yet").isEmpty();
        List<StampResult> again = ts.sync(true);
        assertThat(again).extracting(StampResult::outcome).containsOnly(StampResult.Outcome.QUEUED);
        QueuedStamp later = queue.get(H).orElseThrow();
        assertThat(later.attempts()).isEqualTo(q.attempts() + 1);
        assertThat(later.nextTry()).isEqualTo(T0.plus(TimestampQueue.backoff(later.attempts())));
    }

    @Test
    void parse_readsRepeatedKeys_andRejectsUnknownKeyWithLineNumber() {
        TimestampSettings s = TimestampSettings.parse("# c\ntsa.url = https://a.example/tsr\ntsa.url=https://b.example\n"
                + "ots.calendar = https://cal.example\nhttp.timeout = 5\n", "t.conf");
        assertThat(s.tsaUrls()).extracting(URI::toString).containsExactly("https://a.example/tsr", "https://b.example");
        assertThat(s.calendars()).extracting(URI::toString).containsExactly("https://cal.example");
        assertThat(s.timeouts().request()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.isCalendar("https://cal.example/")).isTrue();
        assertThatThrownBy(() -> TimestampSettings.parse("\n\nfoo = 1\n", "t.conf")).hasMessageContaining("t.conf:3")
                .hasMessageContaining("unknown key");
        assertThatThrownBy(() -> TimestampSettings.parse("tsa.url = ftp://x\n", "t.conf")).hasMessageContaining("not an http(s) URL");
    }

    @Test
    void defaultText_parsesToDefaults() {
        assertThat(TimestampSettings.parse(TimestampSettings.defaultText(), "default")).isEqualTo(TimestampSettings.DEFAULT);
        assertThat(TimestampSettings.DEFAULT.tsaUrls()).isEmpty();
        assertThat(TimestampSettings.DEFAULT.calendars()).hasSize(3);
    }

    @Test
    void sealed_queuedWithoutTheIdentity_namesNothing_andIsMergedWhenRead() throws Exception {
        StoreIdentity id = StoreIdentity.generate();
        Path dir = tmp.resolve("queue");
        Path store = tmp.resolve("proofs");
        TimestampQueue locked = new TimestampQueue(dir, ProofStore.encrypted(store, StoreIdentity.sealer(id.recipient()), Optional.empty())
                .queueSealing());
        TimestampQueue open = new TimestampQueue(dir, ProofStore.encrypted(store, StoreIdentity.sealer(id.recipient()),
                Optional.of(id.opener())).queueSealing());
        locked.add(H, tmp.resolve("p"), List.of(URI.create("http://tsa.example/tsr")), List.of(), T0, "down");
        locked.add(H, tmp.resolve("p"), List.of(), List.of(URI.create("http://cal.example")), T0.plusSeconds(5), "down");

        assertThat(locked.canRead()).isFalse();
        assertThat(locked.get(H)).isEmpty();
        TimestampQueue reopened = new TimestampQueue(dir, ProofStore.encrypted(store, StoreIdentity.sealer(id.recipient()), Optional.empty())
                .queueSealing());
        assertThatThrownBy(reopened::list)
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
        assertThat(locked.count()).isEqualTo(2);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                assertThat(p.getFileName().toString()).matches("[0-9a-f]{32}\\.age");
                assertThat(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)).startsWith("age-encryption.org/v1\n")
                        .doesNotContain(H).doesNotContain("tsa.example");
            }
        }

        QueuedStamp merged = open.list().get(0);
        assertThat(open.list()).hasSize(1);
        assertThat(merged.tsaUrls()).containsExactly(URI.create("http://tsa.example/tsr"));
        assertThat(merged.calendars()).containsExactly(URI.create("http://cal.example"));
        assertThat(merged.queuedAt()).isEqualTo(T0);

        open.put(merged);
        assertThat(open.count()).isEqualTo(1);
        assertThat(open.get(H)).contains(merged);
        open.remove(H);
        assertThat(open.count()).isZero();
        assertThat(open.list()).isEmpty();
    }
}
