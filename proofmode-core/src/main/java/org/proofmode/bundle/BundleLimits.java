// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

/**
 * Bounds on what a bundle may hold, so that a hostile archive cannot exhaust memory, disk or time.
 *
 * @param maxEntries most entries in one archive or folder
 * @param maxSmallFileBytes most bytes of a proof record, signature or key (these are read into memory)
 * @param maxCompressionRatio most bytes an entry may inflate to per compressed byte (beyond a 1 MiB allowance)
 */
public record BundleLimits(int maxEntries, long maxSmallFileBytes, long maxCompressionRatio) {
    /** Limits for bundles from anywhere: 2,000 entries, 16 MiB per proof file, 200:1 compression. */
    public static final BundleLimits DEFAULT = new BundleLimits(2_000, 16L << 20, 200);

    /** Validates the bounds. */
    public BundleLimits {
        if (maxEntries < 1 || maxSmallFileBytes < 1 || maxCompressionRatio < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
