// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.sign.StreamSigner;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.StampResult;
import org.proofmode.timestamp.TimestampQueue;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.util.Http;

class BatchProverTest {
    private static final Prover.Options PLAIN = new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE);

    @TempDir
    Path tmp;

    @Test
    void filesUnder_listsNestedFilesInNameOrder_withoutHiddenOnes() throws Exception {
        Path dir = tmp.resolve("dcim");
        TestHomes.jpegLike(dir.resolve("b.jpg"), 1, 10);
        TestHomes.jpegLike(dir.resolve("a/c.jpg"), 2, 10);
        TestHomes.jpegLike(dir.resolve(".thumbs.jpg"), 3, 10);
        Files.createDirectories(dir.resolve("empty"));
        assertThat(BatchProver.filesUnder(dir)).containsExactly(dir.resolve("a/c.jpg"), dir.resolve("b.jpg"));
    }

    @Test
    void submit_provesEveryFileOnThePool() throws Exception {
        ProofMode pm = ProofMode.at(tmp.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Prover prover = pm.prover(key, pm.store(), ProofMode.defaultSources());
        List<Future<BatchProver.Item>> futures = new ArrayList<>();
        try (BatchProver batch = new BatchProver(3, "test", Optional.empty())) {
            for (int i = 0; i < 8; i++) {
                futures.add(batch.submit(prover, TestHomes.jpegLike(tmp.resolve("m" + i + ".jpg"), i, 5000), PLAIN));
            }
            for (Future<BatchProver.Item> f : futures) {
                BatchProver.Item item = f.get();
                assertThat(item.result().outcome()).isEqualTo(ProveResult.Outcome.PROVED);
                assertThat(item.stamps()).isEmpty();
                assertThat(pm.store().find(item.result().sha256().orElseThrow())).isPresent();
            }
            assertThat(batch.finish(Duration.ofSeconds(5), () -> {})).isTrue();
        }
    }

    @Test
    void prove_stampsNewProofs_andExistingOnesOnlyWhenAsked() throws Exception {
        URI closed = TestHomes.unreachableUrl("/tsr");
        ProofMode pm = ProofMode.at(tmp.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Timestamps ts = new Timestamps(new TimestampSettings(List.of(closed), List.of(), Http.Timeouts.DEFAULT),
                new TimestampQueue(tmp.resolve("home").resolve(TimestampQueue.FOLDER)), List.of(), Clock.systemUTC());
        StampRequest tsa = new StampRequest(List.of(closed), List.of());
        Prover prover = pm.prover(key, pm.store(), ProofMode.defaultSources());
        Path media = TestHomes.jpegLike(tmp.resolve("a.jpg"), 7, 3000);

        try (BatchProver newOnly = new BatchProver(1, "test", Optional.of(new BatchProver.Stamping(ts, tsa, false)))) {
            BatchProver.Item first = newOnly.prove(prover, media, PLAIN);
            assertThat(first.result().outcome()).isEqualTo(ProveResult.Outcome.PROVED);
            // The service cannot be reached: the request is queued, and the proof stands.
            assertThat(first.stamps()).extracting(StampResult::outcome).containsExactly(StampResult.Outcome.QUEUED);
            assertThat(first.stampFailure()).isEmpty();

            BatchProver.Item again = newOnly.prove(prover, media, PLAIN);
            assertThat(again.result().outcome()).isEqualTo(ProveResult.Outcome.EXISTING);
            assertThat(again.stamps()).isEmpty();
        }
        try (BatchProver existingToo = new BatchProver(1, "test", Optional.of(new BatchProver.Stamping(ts, tsa, true)))) {
            BatchProver.Item again = existingToo.prove(prover, media, PLAIN);
            assertThat(again.result().outcome()).isEqualTo(ProveResult.Outcome.EXISTING);
            assertThat(again.stamps()).hasSize(1);
        }
    }

    @Test
    void prove_reportsAStampThatCannotBeQueued_besideTheProof() throws Exception {
        ProofMode pm = ProofMode.at(tmp.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        URI closed = TestHomes.unreachableUrl("/tsr");
        // The queue's folder is a file: an unreachable service's request cannot be kept.
        Path notAFolder = Files.writeString(tmp.resolve("queue"), "x");
        Timestamps ts = new Timestamps(new TimestampSettings(List.of(closed), List.of(), Http.Timeouts.DEFAULT),
                new TimestampQueue(notAFolder), List.of(), Clock.systemUTC());
        Prover prover = pm.prover(key, pm.store(), ProofMode.defaultSources());
        try (BatchProver batch = new BatchProver(1, "test",
                Optional.of(new BatchProver.Stamping(ts, new StampRequest(List.of(closed), List.of()), false)))) {
            BatchProver.Item item = batch.prove(prover, TestHomes.jpegLike(tmp.resolve("a.jpg"), 8, 3000), PLAIN);
            assertThat(item.result().outcome()).isEqualTo(ProveResult.Outcome.PROVED);
            assertThat(item.stampFailure()).isPresent();
            assertThat(pm.store().find(item.result().sha256().orElseThrow())).isPresent();
        }
    }
}
