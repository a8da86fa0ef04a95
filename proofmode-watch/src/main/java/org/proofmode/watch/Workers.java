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
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.Publishing;
import org.proofmode.publish.QueuedPublish;
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
    private volatile ScheduledExecutorService sync;

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

    private synchronized ScheduledExecutorService scheduler() {
        if (sync == null) {
            sync = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "proofmode-watch-sync");
                t.setDaemon(true);
                return t;
            });
        }
        return sync;
    }

    /**
     * Sends what waits in the publish queue now and then (at the timestamp sync's interval), if the watcher
     * publishes: the items whose backoff is over.
     */
    void startPublishSync(Consumer<WatchEvent> events) {
        if (s.publishing().isEmpty()) {
            return;
        }
        Publishing to = s.publishing().get();
        scheduler().scheduleWithFixedDelay(() -> {
            try {
                PublishQueue queue = s.home().publishQueue();
                if (!queue.canRead()) {
                    return; // sealed, and the store's identity is not at hand: 'proofmode publish sync' sends them
                }
                for (QueuedPublish q : queue.list()) {
                    if (q.due(s.clock().instant())) {
                        publish(new Publishing(to.publisher().forQueued(q, false), q.what()), q.sha256(), "sync").ifPresent(events);
                    }
                }
            } catch (ProofModeException | IllegalArgumentException e) {
                events.accept(WatchEvent.of(s.clock().instant(), Kind.ERROR, "error", "publish sync: " + e.getMessage()));
            }
        }, 0, s.config().timestampSync().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Optional<WatchEvent> publish(String sha256) {
        return s.publishing().flatMap(to -> publish(to, sha256, "new"));
    }

    private Optional<WatchEvent> publish(Publishing to, String sha256, String why) {
        try {
            Publishing.Result r = s.home().publish(to, sha256);
            return Optional.of(WatchEvent.of(s.clock().instant(), Kind.PUBLISHED, "sha256", sha256, "what", to.what().spelled(),
                    "outcome", r.queued().isPresent() ? "queued" : "sent", "for", why,
                    "detail", r.queued().orElseGet(() -> r.link().map(Object::toString).orElse(""))));
        } catch (ProofModeException e) {
            return Optional.of(WatchEvent.of(s.clock().instant(), Kind.ERROR, "sha256", sha256, "error", "publish: " + e.getMessage()));
        }
    }

    /** Retries queued timestamp requests now and then at the configured interval, if timestamps are set up. */
    void startTimestampSync(Consumer<WatchEvent> events) {
        if (s.timestamps().isEmpty()) {
            return;
        }
        long every = s.config().timestampSync().toMillis();
        scheduler().scheduleWithFixedDelay(() -> {
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
