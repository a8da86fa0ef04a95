// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares an original with its redacted copy: outside the regions the pixels must be the same, inside
 * each region they must differ.
 *
 * <p>For a lossless copy (PNG) every pixel outside the regions must be equal. For a JPEG copy the
 * encoder's error is allowed: pixels within {@link #JPEG_MARGIN} of a region are not compared (JPEG codes
 * 16-pixel blocks, and a block that touches a region carries its change), and every 16 by 16 block
 * elsewhere must stay within a root-mean-square difference of {@link #JPEG_MAX_BLOCK_RMSE} per channel.
 * Quality 0.95 re-encoding gives about 1 to 3; an object painted into a block gives tens.
 */
public final class PixelComparison {
    /** Pixels this close to a region are not compared in a JPEG copy. */
    public static final int JPEG_MARGIN = 16;
    /** Largest root-mean-square difference per channel in one 16 by 16 block of a JPEG copy. */
    public static final double JPEG_MAX_BLOCK_RMSE = 8.0;
    /** A region whose mean absolute difference per channel is below this looks unchanged. */
    public static final double MIN_REGION_CHANGE = 1.0;

    private static final int BLOCK = 16;

    /**
     * What the comparison found.
     *
     * @param sameSize whether both images have the same width and height
     * @param outsideChanged pixels outside the regions that differ (lossless) or lie in a block beyond the
     *     tolerance (JPEG)
     * @param worstBlock the worst block outside the regions, if any differs
     * @param worstBlockRmse its root-mean-square difference per channel
     * @param regionChange mean absolute difference per channel inside each region, in order
     */
    public record Result(boolean sameSize, long outsideChanged, Optional<Box> worstBlock, double worstBlockRmse,
            List<Double> regionChange) {
        /** Validates and copies the fields. */
        public Result {
            Objects.requireNonNull(worstBlock, "worstBlock");
            regionChange = List.copyOf(regionChange);
        }

        /** Whether nothing outside the regions changed beyond the tolerance. */
        public boolean outsideUnchanged() {
            return sameSize && outsideChanged == 0;
        }
    }

    private PixelComparison() {}

    /**
     * Compares.
     *
     * @param original the original, decoded
     * @param redacted the redacted copy, decoded
     * @param regions the redacted regions
     * @param lossless whether the copy is lossless (exact comparison)
     */
    public static Result compare(Picture original, Picture redacted, List<Box> regions, boolean lossless) {
        if (original.width() != redacted.width() || original.height() != redacted.height()) {
            return new Result(false, (long) redacted.width() * redacted.height(), Optional.empty(), 0, List.of());
        }
        int w = original.width();
        int h = original.height();
        List<Box> excluded = new ArrayList<>();
        for (Box r : regions) {
            excluded.add(lossless ? r : r.grow(JPEG_MARGIN, w, h));
        }
        List<Double> inside = new ArrayList<>();
        for (Box r : regions) {
            inside.add(meanAbsDiff(original, redacted, r));
        }
        long changed = 0;
        double worst = 0;
        Box worstBox = null;
        for (int by = 0; by < h; by += BLOCK) {
            for (int bx = 0; bx < w; bx += BLOCK) {
                Box b = new Box(bx, by, Math.min(BLOCK, w - bx), Math.min(BLOCK, h - by));
                long n = 0;
                long sq = 0;
                long differing = 0;
                for (int y = b.y(); y < b.y() + b.height(); y++) {
                    for (int x = b.x(); x < b.x() + b.width(); x++) {
                        if (inAny(excluded, x, y)) {
                            continue;
                        }
                        int p = original.argb(x, y);
                        int q = redacted.argb(x, y);
                        if (p != q) {
                            differing++;
                            for (int sh = 0; sh < 32; sh += 8) {
                                int d = ((p >>> sh) & 0xFF) - ((q >>> sh) & 0xFF);
                                sq += d * d;
                            }
                        }
                        n++;
                    }
                }
                if (n == 0 || differing == 0) {
                    continue;
                }
                double rmse = Math.sqrt(sq / (4.0 * n));
                if (rmse > worst) {
                    worst = rmse;
                    worstBox = b;
                }
                if (lossless) {
                    changed += differing;
                } else if (rmse > JPEG_MAX_BLOCK_RMSE) {
                    changed += n;
                }
            }
        }
        return new Result(true, changed, Optional.ofNullable(worstBox), worst, inside);
    }

    private static boolean inAny(List<Box> boxes, int x, int y) {
        for (Box b : boxes) {
            if (b.contains(x, y)) {
                return true;
            }
        }
        return false;
    }

    private static double meanAbsDiff(Picture a, Picture b, Box r) {
        if (!r.fitsIn(a.width(), a.height())) {
            return 0;
        }
        long sum = 0;
        for (int y = r.y(); y < r.y() + r.height(); y++) {
            for (int x = r.x(); x < r.x() + r.width(); x++) {
                int p = a.argb(x, y);
                int q = b.argb(x, y);
                for (int sh = 0; sh < 24; sh += 8) {
                    sum += Math.abs(((p >>> sh) & 0xFF) - ((q >>> sh) & 0xFF));
                }
            }
        }
        return sum / (3.0 * r.width() * r.height());
    }
}
