package org.proofmode.watch;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code status} shows: the folders watched, whether a watcher runs, its queue, its last proofs and
 * the files it could not prove.
 *
 * @param folders the folders of the last (or running) watcher
 * @param pid the process id of the last watcher
 * @param running whether that process still holds the watcher's lock
 * @param startedAt when it started
 * @param heartbeat when it last said it was alive
 * @param counts files per state
 * @param pendingTimestamps timestamp requests still queued
 * @param lastProofs the most recent proofs, newest first
 * @param problems files whose last attempt failed, most recent first
 */
public record WatchStatus(List<String> folders, Optional<Long> pid, boolean running, Optional<Instant> startedAt,
        Optional<Instant> heartbeat, Map<FileState, Long> counts, int pendingTimestamps, List<ProofEntry> lastProofs,
        List<TrackedFile> problems) {
    /** Validates the fields. */
    public WatchStatus {
        folders = List.copyOf(folders);
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(heartbeat, "heartbeat");
        counts = Map.copyOf(counts);
        lastProofs = List.copyOf(lastProofs);
        problems = List.copyOf(problems);
    }

    /** Files waiting to be proved (complete or not). */
    public long queueLength() {
        return counts.getOrDefault(FileState.PENDING, 0L);
    }
}
