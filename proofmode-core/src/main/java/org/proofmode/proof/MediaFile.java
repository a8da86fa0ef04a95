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
 * @param sha256 its SHA-256, lower-case hex
 * @param size its size in bytes
 * @param proofTime when the proof is being made
 */
public record MediaFile(Path path, MediaType type, String sha256, long size, Instant proofTime) {
    /** Validates the fields. */
    public MediaFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(proofTime, "proofTime");
    }
}
