// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A proof the watcher made.
 *
 * @param sha256 the content proved
 * @param path the file it was made for
 * @param detectedAt when that file was first seen
 * @param provedAt when the proof was stored
 */
public record ProofEntry(String sha256, String path, Instant detectedAt, Instant provedAt) {
    /** Validates the fields. */
    public ProofEntry {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(detectedAt, "detectedAt");
        Objects.requireNonNull(provedAt, "provedAt");
    }

    /** Milliseconds from detection to the stored proof. */
    public long latencyMillis() {
        return Duration.between(detectedAt, provedAt).toMillis();
    }
}
