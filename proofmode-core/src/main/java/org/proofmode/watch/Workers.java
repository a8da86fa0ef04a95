// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.Prover;
import org.proofmode.timestamp.StampResult;
import org.proofmode.watch.WatchEvent.Kind;

/**
 * The watcher's bounded pool of provers, and the thread that retries queued timestamps. Results come back
 * through a queue that the watcher's own thread drains, so that only it touches the database.
 */
final class Workers implements ProveTask.Env {
    /** How long proofs under way are given to finish when the watcher stops. */
    private static final long GRACE_MILLIS = 30_000;

    private final Watcher.Setup s;
    private final ExecutorService pool;
    private final LinkedBlockingQueue<ProveTask.Done> done = new LinkedBlockingQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int capacity;
    private ScheduledExecutorService sync;
    /** The key once it was had: later provers then know it is at hand. */
    private volatile SigningKey unlocked;

    Workers(Watcher.Setup s) {
        this.s = s;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(s.config().workers(), r -> {
            Thread t = new Thread(r, "proofmode-watch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
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
        pool.execute(() -> {
            try {
                done.add(ProveTask.run(this, f, size, mtime));
            } finally {
                inFlight.decrementAndGet();
            }
        });
    }

    ProveTask.Done poll() {
        return done.poll();
    }

    /** Lets proofs under way finish (calling {@code drain} meanwhile), up to a grace period. */
    void shutdown(Runnable drain) throws InterruptedException {
        pool.shutdown();
        if (sync != null) {
            sync.shutdownNow();
        }
        long until = System.currentTimeMillis() + GRACE_MILLIS;
        while (!pool.awaitTermination(100, TimeUnit.MILLISECONDS) && System.currentTimeMillis() < until) {
            drain.run();
        }
    }

    /** Abandons whatever is still running: a proof set is stored whole or not at all. */
    void shutdownNow() {
        pool.shutdownNow();
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
        List<MetadataSource> sources = new ArrayList<>();
        sources.add(new WatchSource(file.snapshot(), completeAt));
        sources.addAll(s.media());
        SigningKey k = unlocked;
        Prover p = k != null ? new Prover(k, s.home().store(), sources, s.clock()) : new Prover(() -> {
            SigningKey got = s.key().get();
            unlocked = got;
            return got;
        }, s.home().store(), sources, s.clock());
        return p.withJ3m(s.config().j3m());
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
    public List<WatchEvent> stamp(Path proofFolder, String sha256) {
        List<WatchEvent> out = new ArrayList<>();
        if (s.timestamps().isEmpty() || s.stampNew().isEmpty()) {
            return out;
        }
        try {
            for (StampResult r : s.timestamps().get().stamp(proofFolder, sha256, s.stampNew().get())) {
                out.add(event(r, "new"));
            }
        } catch (ProofModeException e) {
            out.add(WatchEvent.of(s.clock().instant(), Kind.ERROR, "sha256", sha256, "error", "timestamp: " + e.getMessage()));
        }
        return out;
    }

    private WatchEvent event(StampResult r, String why) {
        return WatchEvent.of(s.clock().instant(), Kind.TIMESTAMP, "sha256", r.sha256(), "kind", r.kind().name().toLowerCase(Locale.ROOT),
                "outcome", r.outcome().name().toLowerCase(Locale.ROOT), "for", why, "detail", r.detail());
    }
}
