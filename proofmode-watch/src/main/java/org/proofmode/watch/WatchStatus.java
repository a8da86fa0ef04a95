// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.TimestampQueue;

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
 * @param freeBytes the space left on the disk that holds the home (store and database), when it can be read
 * @param locked whether the database is sealed (the store is encrypted) and was read without its key: the
 *     folders, last proofs and problems, which name media, are then left out; counts and times are there
 */
public record WatchStatus(List<String> folders, Optional<Long> pid, boolean running, Optional<Instant> startedAt,
        Optional<Instant> heartbeat, Map<FileState, Long> counts, int pendingTimestamps, List<ProofEntry> lastProofs,
        List<TrackedFile> problems, Optional<Long> freeBytes, boolean locked) {
    /**
     * Below this much free space the disk counts as full: a proof set with its database row needs tens of
     * kilobytes, and the file system keeps some for itself.
     */
    public static final long FULL_BELOW_BYTES = 1L << 20;

    /** Validates the fields. */
    public WatchStatus {
        folders = List.copyOf(folders);
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(heartbeat, "heartbeat");
        counts = Map.copyOf(counts);
        lastProofs = List.copyOf(lastProofs);
        problems = List.copyOf(problems);
        Objects.requireNonNull(freeBytes, "freeBytes");
    }

    /** Tells whether the home's disk is (nearly) full, so that no proof or database change can be stored. */
    public boolean diskFull() {
        return freeBytes.map(b -> b < FULL_BELOW_BYTES).orElse(false);
    }

    /**
     * Reads the status of a home's watcher without disturbing it; a home where no watcher ever ran has an
     * empty status.
     *
     * @param home the ProofMode home
     * @param last how many recent proofs and problems to list
     * @throws ProofModeException with {@link Failure#IO} if the database cannot be read
     */
    public static WatchStatus of(ProofMode home, int last) {
        return of(home, last, Optional.empty());
    }

    /**
     * As {@link #of(ProofMode, int)}; a sealed database (the store is encrypted) is read whole with the store's
     * identity, and without it is {@linkplain #locked() locked}.
     *
     * @param identity the encrypted store's identity, if at hand
     * @throws ProofModeException with {@link Failure#IO} if the database cannot be read, {@link Failure#BAD_DATA}
     *     if its key is not sealed to this identity
     */
    public static WatchStatus of(ProofMode home, int last, Optional<StoreIdentity> identity) {
        Path file = home.home().resolve(WatchDb.FILE);
        int stamps = new TimestampQueue(home.home().resolve(TimestampQueue.FOLDER)).count();
        boolean running = WatchLock.held(home.home());
        Optional<Long> free = freeSpace(home.home());
        if (!Files.isRegularFile(file)) {
            return new WatchStatus(List.of(), Optional.empty(), running, Optional.empty(), Optional.empty(), Map.of(), stamps,
                    List.of(), List.of(), free, false);
        }
        Optional<WatchSeal> seal = Optional.empty();
        if (identity.isPresent()) {
            try (WatchDb db = WatchDb.openToRead(file)) {
                seal = db.keyCopy().map(c -> WatchSeal.fromCopy(c, identity.get()));
            }
        }
        try (WatchDb db = WatchDb.openToRead(file, seal)) {
            Map<String, String> meta = db.meta();
            String folders = meta.getOrDefault("folders", "");
            boolean locked = db.locked();
            return new WatchStatus(folders.isEmpty() ? List.of() : List.of(folders.split("\n")),
                    Optional.ofNullable(meta.get("pid")).map(Long::parseLong), running,
                    Optional.ofNullable(meta.get("startedAt")).map(Instant::parse),
                    Optional.ofNullable(meta.get("heartbeat")).map(Instant::parse), db.counts(), stamps,
                    locked ? List.of() : db.lastProofs(last), locked ? List.of() : db.problems(last), free, locked);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new ProofModeException(Failure.IO, "the watch database " + file
                    + " has unreadable facts: " + e.getMessage(), e);
        } finally {
            seal.ifPresent(WatchSeal::close);
        }
    }

    private static Optional<Long> freeSpace(Path home) {
        try {
            return Optional.of(Files.getFileStore(home).getUsableSpace());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Files waiting to be proved (complete or not). */
    public long queueLength() {
        return counts.getOrDefault(FileState.PENDING, 0L);
    }
}
