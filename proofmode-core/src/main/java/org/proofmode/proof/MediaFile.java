// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import org.proofmode.media.MediaType;

/**
 * What metadata sources are told about the media being proved.
 *
 * @param path the media file, absolute
 * @param type its format, found by content sniffing
 * @param size its size in bytes
 * @param proofTime when the proof is being made; for a large file, when proving it started, since the
 *     sources then run while the file is being hashed
 */
public record MediaFile(Path path, MediaType type, long size, Instant proofTime) {
    /** Validates the fields. */
    public MediaFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(proofTime, "proofTime");
    }
}
