// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.proofmode.proof.ProofRecord;

/**
 * A reading of the surroundings reused for a while, so that proving a folder asks a system service once
 * rather than once per file. The first reading can be started as soon as the sources are made
 * ({@link #start}), so that a command's first proof does not wait for it: a cold process spends 150 to
 * 300 ms loading dbus-java and connecting, which then runs while the key is unlocked and the media read.
 */
final class Reused {
    /** How long a reading is reused. */
    static final Duration FOR = Duration.ofSeconds(10);

    /** Where first readings run: daemon threads, which never keep a process alive. */
    static final ExecutorService EARLY = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "proofmode-context-early");
        t.setDaemon(true);
        return t;
    });

    /**
     * What a source read: its fields and, if something went wrong, why.
     *
     * @param fields the fields to add
     * @param problem the warning to add, if any
     */
    record Reading(Map<String, String> fields, Optional<String> problem) {
        Reading {
            fields = Map.copyOf(fields);
        }

        /** Puts the fields into a record, and the problem as {@code Warning.<source>}. */
        void addTo(ProofRecord.Builder record, String source) {
            fields.forEach(record::put);
            problem.ifPresent(m -> record.warn(source, m));
        }
    }

    private Reading reading;
    private long at;
    private CompletableFuture<Reading> early;

    /** Starts the first reading now, on another thread; {@link #get} then waits for it (each reading is bounded). */
    synchronized void start(Supplier<Reading> read) {
        if (reading == null && early == null) {
            at = System.nanoTime();
            early = CompletableFuture.supplyAsync(read, EARLY);
        }
    }

    /** The last reading if it is younger than {@link #FOR}, else a new one from {@code read}. */
    synchronized Reading get(Supplier<Reading> read) {
        if (early != null) {
            CompletableFuture<Reading> e = early;
            early = null;
            reading = e.join();
            return reading;
        }
        long now = System.nanoTime();
        if (reading == null || now - at >= FOR.toNanos()) {
            reading = read.get();
            at = now;
        }
        return reading;
    }
}
