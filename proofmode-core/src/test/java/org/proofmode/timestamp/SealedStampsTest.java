// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.ProofStore;

/**
 * Timestamps of sets in an encrypted store, where no service needs to answer: a set sealed by another
 * process cannot be read without the identity, so its request is queued (sealed) instead of failing, and
 * the queue is left alone by a sync that cannot open it.
 */
class SealedStampsTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final StoreIdentity ID = StoreIdentity.generate();

    @TempDir
    Path home;

    private ProofStore store(boolean unlocked) {
        return ProofStore.encrypted(home.resolve("proofs"), StoreIdentity.sealer(ID.recipient()),
                unlocked ? Optional.of(ID.opener()) : Optional.empty());
    }

    private Timestamps timestamps(ProofStore store) {
        return new Timestamps(TimestampSettings.parse("", "timestamp.conf"), new TimestampQueue(home.resolve(TimestampQueue.FOLDER),
                store.queueSealing()), List.of(), Clock.fixed(Instant.parse("2026-12-05T10:00:00Z"), ZoneOffset.UTC), Optional.empty(),
                Optional.of(store));
    }

    @Test
    void aSetSealedElsewhere_isQueuedWhileLocked_andTheLockedSyncLeavesTheQueue() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(H + ".asc", "signature".getBytes(StandardCharsets.UTF_8));
        Path folder = store(false).write(H, files, false).folder();
        ProofStore locked = store(false);
        URI tsa = URI.create("http://127.0.0.1:1/tsr");

        List<StampResult> r = timestamps(locked).stamp(folder, H, new StampRequest(List.of(tsa), List.of()));

        assertThat(r).singleElement().satisfies(s -> {
            assertThat(s.outcome()).isEqualTo(StampResult.Outcome.QUEUED);
            assertThat(s.detail()).contains("identity");
        });
        try (Stream<Path> q = Files.list(home.resolve(TimestampQueue.FOLDER))) {
            assertThat(q.map(p -> p.getFileName().toString())).singleElement().asString().matches("[0-9a-f]{32}\\.age");
        }
        assertThat(timestamps(store(false)).sync(true)).isEmpty();
        assertThat(new TimestampQueue(home.resolve(TimestampQueue.FOLDER)).count()).isEqualTo(1);

        QueuedStamp q = timestamps(store(true)).queue().list().get(0);
        assertThat(q.sha256()).isEqualTo(H);
        assertThat(q.proofFolder()).isEqualTo(folder);
        assertThat(q.tsaUrls()).containsExactly(tsa);
    }
}
