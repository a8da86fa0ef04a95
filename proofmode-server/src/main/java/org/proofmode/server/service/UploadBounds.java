// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds on resumable uploads in progress ({@code /api/v1/uploads}): each one holds a file and the disk it
 * announced, so how many one token may hold, how many the server holds in all, how many bytes they may
 * announce together, and how long one waits for its next bytes before it is dropped.
 *
 * @param perToken most uploads in progress for one upload token
 * @param total most uploads in progress on the server in all
 * @param reservedBytes most bytes announced ({@code Upload-Length}) by the uploads in progress together
 * @param kept how long an upload waits for its next bytes before it is dropped and its share freed
 */
public record UploadBounds(int perToken, int total, long reservedBytes, Duration kept) {
    /** Default for {@link #perToken}. */
    public static final int DEFAULT_PER_TOKEN = 8;

    /** Default for {@link #total}. */
    public static final int DEFAULT_TOTAL = 256;

    /** Default for {@link #reservedBytes}: 8 GiB. */
    public static final long DEFAULT_RESERVED_BYTES = 8L << 30;

    /** The defaults: 8 per token, 256 in all, 8 GiB announced in all, dropped after a day without bytes. */
    public static final UploadBounds DEFAULT = new UploadBounds(DEFAULT_PER_TOKEN, DEFAULT_TOTAL, DEFAULT_RESERVED_BYTES, Duration.ofDays(1));

    /** Validates the fields. */
    public UploadBounds {
        Objects.requireNonNull(kept, "kept");
        if (perToken < 1 || total < 1 || reservedBytes < 1 || kept.isNegative() || kept.isZero()) {
            throw new IllegalArgumentException("upload bounds must be positive");
        }
    }
}
