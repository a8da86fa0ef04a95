// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.proofmode.ProofMode;
import org.proofmode.failure.ProofModeException;
import org.proofmode.prove.BatchProver;
import org.proofmode.prove.Prover;
import org.proofmode.timestamp.StampResult;
import org.proofmode.watch.WatchEvent.Kind;

/**
 * The watcher's bounded pool of provers (the core's {@link BatchProver}, which also stamps each new
 * proof), and the thread that retries queued timestamps. Results come back through a queue that the
 * watcher's own thread drains, so that only it touches the database.
 */
final class Workers implements ProveTask.Env {
    /** How long proofs under way are given to finish when the watcher stops. */
    private static final Duration GRACE = Duration.ofSeconds(30);

    private final Watcher.Setup s;
    private final Prover prover;
    private final BatchProver batch;
    private final LinkedBlockingQueue<ProveTask.Done> done = new LinkedBlockingQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int capacity;
    private ScheduledExecutorService sync;

    Workers(Watcher.Setup s) {
        this.s = s;
        ProofMode home = s.home().withClock(s.clock());
        this.prover = home.prover(s.key(), home.store(), s.media()).withJ3m(s.config().j3m());
        this.batch = new BatchProver(s.config().workers(), "proofmode-watch",
                s.timestamps().flatMap(t -> s.stampNew().map(r -> new BatchProver.Stamping(t, r, false))));
        this.capacity = 2 * s.config().workers();
    }

    int room() {
        return Math.max(0, capacity - inFlight.get());
    }

    int inFlight() {
        return inFlight.get();
    }

    void submit(TrackedFile f, long size, long mtime) {
        inFlight.incrementAndGet();
        batch.submit(() -> {
            try {
                done.add(ProveTask.run(this, f, size, mtime));
            } finally {
                inFlight.decrementAndGet();
            }
            return null;
        });
    }

    ProveTask.Done poll() {
        return done.poll();
    }

    /** Lets proofs under way finish (calling {@code drain} meanwhile), up to a grace period. */
    void shutdown(Runnable drain) throws InterruptedException {
        if (sync != null) {
            sync.shutdownNow();
        }
        batch.finish(GRACE, drain);
    }

    /** Abandons whatever is still running: a proof set is stored whole or not at all. */
    void shutdownNow() {
        batch.close();
        if (sync != null) {
            sync.shutdownNow();
        }
    }

    /** Retries queued timestamp requests now and then at the configured interval, if timestamps are set up. */
    void startTimestampSync(Consumer<WatchEvent> events) {
        if (s.timestamps().isEmpty()) {
            return;
        }
        sync = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "proofmode-watch-timestamps");
            t.setDaemon(true);
            return t;
        });
        long every = s.config().timestampSync().toMillis();
        sync.scheduleWithFixedDelay(() -> {
            try {
                for (StampResult r : s.timestamps().get().sync(false)) {
                    events.accept(event(r, "sync"));
                }
            } catch (ProofModeException | IllegalArgumentException e) {
                events.accept(WatchEvent.of(s.clock().instant(), Kind.ERROR, "error", "timestamp sync: " + e.getMessage()));
            }
        }, 0, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Prover prover(TrackedFile file, Instant completeAt) {
        return prover.withFirstSource(new WatchSource(file.snapshot(), completeAt));
    }

    @Override
    public BatchProver batch() {
        return batch;
    }

    @Override
    public Clock clock() {
        return s.clock();
    }

    @Override
    public Optional<String> notes() {
        return s.config().notes();
    }

    @Override
    public WatchEvent event(StampResult r, String why) {
        return WatchEvent.of(s.clock().instant(), Kind.TIMESTAMP, "sha256", r.sha256(), "kind", r.kind().name().toLowerCase(Locale.ROOT),
                "outcome", r.outcome().name().toLowerCase(Locale.ROOT), "for", why, "detail", r.detail());
    }
}
