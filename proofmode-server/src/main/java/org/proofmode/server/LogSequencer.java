// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.proofmode.server.store.LogStore;
import org.proofmode.tlog.SignedNote;

/**
 * Integrates the log's queued entries in batches on one background thread: every interval, as long as
 * entries wait, each batch one transaction and one signed checkpoint. Instances sharing a database each
 * run one; the state row's lock keeps the log linear whichever does the work.
 */
final class LogSequencer implements AutoCloseable {
    /** Most entries integrated under one checkpoint. */
    static final int BATCH = 1024;

    private final LogStore log;
    private final SignedNote.Signer key;
    private final ScheduledExecutorService timer;
    private final AtomicReference<String> lastFailure = new AtomicReference<>();

    LogSequencer(LogStore log, SignedNote.Signer key, Duration interval) {
        this.log = Objects.requireNonNull(log, "log");
        this.key = Objects.requireNonNull(key, "key");
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "proofmode-log-sequencer");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        timer.scheduleWithFixedDelay(this::drain, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Integrates everything queued now, in batches. */
    void drain() {
        try {
            while (log.integrate(BATCH, key) == BATCH) {
                // another full batch may wait
            }
            lastFailure.set(null);
        } catch (RuntimeException e) {
            // The entries stay queued; the next round tries again.
            lastFailure.set(e.getMessage());
        }
    }

    /** Why the last round failed, if it did. */
    Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
