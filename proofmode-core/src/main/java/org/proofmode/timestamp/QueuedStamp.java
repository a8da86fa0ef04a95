// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.util.Hex;

/**
 * A timestamp request waiting in the queue because its service could not be reached.
 *
 * @param sha256 the media hash naming the proof
 * @param proofFolder the proof's folder (in the store, or under {@code prove --out})
 * @param tsaUrls RFC 3161 authorities still to ask (empty when no token is wanted)
 * @param calendars OpenTimestamps calendars still to ask (empty when no OpenTimestamps proof is wanted)
 * @param attempts how many times the request has failed
 * @param queuedAt when it was first queued
 * @param nextTry when it is due again
 * @param lastError why the last attempt failed, if one did
 */
public record QueuedStamp(String sha256, Path proofFolder, List<URI> tsaUrls, List<URI> calendars, int attempts,
        Instant queuedAt, Instant nextTry, Optional<String> lastError) {
    /** Validates and copies. */
    public QueuedStamp {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        Objects.requireNonNull(proofFolder, "proofFolder");
        tsaUrls = List.copyOf(tsaUrls);
        calendars = List.copyOf(calendars);
        if (tsaUrls.isEmpty() && calendars.isEmpty()) {
            throw new IllegalArgumentException("a queued request asks for nothing");
        }
        if (attempts < 0) {
            throw new IllegalArgumentException("negative attempts");
        }
        Objects.requireNonNull(queuedAt, "queuedAt");
        Objects.requireNonNull(nextTry, "nextTry");
        Objects.requireNonNull(lastError, "lastError");
    }

    /** Tells whether it is due at the given time. */
    public boolean dueAt(Instant now) {
        return !nextTry.isAfter(now);
    }
}
