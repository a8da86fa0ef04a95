// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a watcher runs.
 *
 * @param folders the folders to watch, absolute
 * @param recursive whether folders below them are watched too
 * @param settle how long a file's size and time must stay the same (with no writer) before it is proved
 * @param rescan how often every folder is walked again, to catch what events missed
 * @param workers how many files are proved at once
 * @param maxAttempts how many times an unreadable file is tried before it is reported as failed
 * @param firstBackoff the wait after the first failed attempt; it doubles after each further one
 * @param timestampSync how often queued timestamp requests are retried
 * @param notes free text recorded in every proof
 * @param j3m whether CameraV's J3M document is written too
 */
public record WatchConfig(List<Path> folders, boolean recursive, Duration settle, Duration rescan, int workers,
        int maxAttempts, Duration firstBackoff, Duration timestampSync, Optional<String> notes, boolean j3m) {
    /** The default wait for a file to settle. */
    public static final Duration DEFAULT_SETTLE = Duration.ofMillis(500);
    /** The default interval between rescans. */
    public static final Duration DEFAULT_RESCAN = Duration.ofSeconds(60);
    /** The default number of attempts on an unreadable file. */
    public static final int DEFAULT_ATTEMPTS = 5;

    /** Validates the fields. */
    public WatchConfig {
        folders = List.copyOf(folders);
        if (folders.isEmpty()) {
            throw new IllegalArgumentException("no folder to watch");
        }
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(rescan, "rescan");
        Objects.requireNonNull(firstBackoff, "firstBackoff");
        Objects.requireNonNull(timestampSync, "timestampSync");
        Objects.requireNonNull(notes, "notes");
        if (workers < 1 || maxAttempts < 1 || settle.isNegative() || rescan.compareTo(Duration.ofSeconds(1)) < 0
                || firstBackoff.isNegative() || timestampSync.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("workers and attempts must be at least 1, rescan and timestamp sync at least 1 s");
        }
    }

    /**
     * The defaults for some folders: settle 500 ms, rescan every minute, four workers per core (so that
     * hashing goes on while proofs are flushed to disk), five attempts.
     */
    public static WatchConfig defaults(List<Path> folders, boolean recursive) {
        return new WatchConfig(folders, recursive, DEFAULT_SETTLE, DEFAULT_RESCAN,
                4 * Runtime.getRuntime().availableProcessors(), DEFAULT_ATTEMPTS, Duration.ofSeconds(1), Duration.ofMinutes(1),
                Optional.empty(), false);
    }

    /** The wait before attempt {@code n + 1} after {@code n} failures: doubling, at most five minutes. */
    Duration backoff(int failures) {
        Duration d = firstBackoff.multipliedBy(1L << Math.min(Math.max(failures - 1, 0), 16));
        Duration max = Duration.ofMinutes(5);
        return d.compareTo(max) > 0 ? max : d;
    }
}
