// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;

/** Turns stored pixels into displayed pixels by the EXIF orientation (1 to 8). */
final class Orientations {
    private Orientations() {}

    /** The image as displayed; the same object for orientation 1. */
    static BufferedImage apply(BufferedImage src, int orientation) {
        if (orientation <= 1 || orientation > 8) {
            return src;
        }
        int w = src.getWidth();
        int h = src.getHeight();
        boolean swap = orientation >= 5;
        int dw = swap ? h : w;
        int dh = swap ? w : h;
        BufferedImage out = new BufferedImage(dw, dh, src.getType());
        int[] s = ((DataBufferInt) src.getRaster().getDataBuffer()).getData();
        int[] d = ((DataBufferInt) out.getRaster().getDataBuffer()).getData();
        for (int sy = 0; sy < h; sy++) {
            for (int sx = 0; sx < w; sx++) {
                int dx;
                int dy;
                switch (orientation) {
                    case 2 -> { dx = w - 1 - sx; dy = sy; }
                    case 3 -> { dx = w - 1 - sx; dy = h - 1 - sy; }
                    case 4 -> { dx = sx; dy = h - 1 - sy; }
                    case 5 -> { dx = sy; dy = sx; }
                    case 6 -> { dx = h - 1 - sy; dy = sx; }
                    case 7 -> { dx = h - 1 - sy; dy = w - 1 - sx; }
                    default -> { dx = sy; dy = w - 1 - sx; }
                }
                d[dy * dw + dx] = s[sy * w + sx];
            }
        }
        return out;
    }
}
