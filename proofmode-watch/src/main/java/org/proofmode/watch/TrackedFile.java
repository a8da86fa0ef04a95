// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One watched file as the database knows it.
 *
 * @param path the absolute path
 * @param size its size when last looked at
 * @param mtime its modification time when last looked at, in nanoseconds since the epoch
 * @param state where it stands
 * @param sha256 the hash of the content proved (with {@link FileState#DONE})
 * @param detectedAt when this content was first seen
 * @param detectedBy how it was first seen: {@code event} or {@code scan}
 * @param snapshot the capture context taken when it was first seen
 * @param attempts failed attempts so far
 * @param nextTry when it may be tried again, milliseconds since the epoch
 * @param lastError why the last attempt failed
 */
public record TrackedFile(String path, long size, long mtime, FileState state, Optional<String> sha256, Instant detectedAt,
        String detectedBy, Map<String, String> snapshot, int attempts, long nextTry, Optional<String> lastError) {
    /** Validates the fields. */
    public TrackedFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(detectedAt, "detectedAt");
        Objects.requireNonNull(detectedBy, "detectedBy");
        snapshot = Map.copyOf(snapshot);
        Objects.requireNonNull(lastError, "lastError");
        if (size < 0 || attempts < 0) {
            throw new IllegalArgumentException("negative size or attempts");
        }
    }

    /** A file seen for the first time (or with new content). */
    static TrackedFile seen(String path, long size, long mtime, Instant at, String by, Map<String, String> snapshot) {
        return new TrackedFile(path, size, mtime, FileState.PENDING, Optional.empty(), at, by, snapshot, 0, 0, Optional.empty());
    }

    /** This file in another state, with the size and time that were read. */
    TrackedFile with(FileState s, long newSize, long newMtime, Optional<String> hash) {
        return new TrackedFile(path, newSize, newMtime, s, hash, detectedAt, detectedBy, snapshot, 0, 0, Optional.empty());
    }

    /** This file after a failed attempt. */
    TrackedFile failed(FileState s, int tries, long retryAt, String error) {
        return new TrackedFile(path, size, mtime, s, sha256, detectedAt, detectedBy, snapshot, tries, retryAt, Optional.of(error));
    }

    /** Tells whether the file on disk looks as it did when this was recorded. */
    boolean sameAs(long otherSize, long otherMtime) {
        return size == otherSize && mtime == otherMtime;
    }
}
