// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What proving one path did.
 *
 * @param path the media file as given
 * @param outcome proved, already proved, or skipped
 * @param sha256 the media hash (empty when skipped)
 * @param proofFolder the folder holding the proof set (empty when skipped)
 * @param reason why it was skipped (empty otherwise)
 */
public record ProveResult(Path path, Outcome outcome, Optional<String> sha256, Optional<Path> proofFolder,
        Optional<String> reason) {
    /** What happened to one file. */
    public enum Outcome {
        /** A new proof set was written. */
        PROVED,
        /** A proof of this content existed and was kept. */
        EXISTING,
        /** Not a media file, or could not be read; nothing written. */
        SKIPPED
    }

    /** Validates the fields. */
    public ProveResult {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(proofFolder, "proofFolder");
        Objects.requireNonNull(reason, "reason");
    }

    static ProveResult skipped(Path path, String reason) {
        return new ProveResult(path, Outcome.SKIPPED, Optional.empty(), Optional.empty(), Optional.of(reason));
    }
}
