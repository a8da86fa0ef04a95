// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

/**
 * A rectangle of pixels: left, top, width and height, in the image as it is displayed (after its EXIF
 * orientation is applied).
 *
 * @param x left column, from 0
 * @param y top row, from 0
 * @param width width in pixels, at least 1
 * @param height height in pixels, at least 1
 */
public record Box(int x, int y, int width, int height) {
    /** Validates the fields. */
    public Box {
        if (x < 0 || y < 0 || width < 1 || height < 1) {
            throw new IllegalArgumentException("not a box: " + x + "," + y + "," + width + "," + height);
        }
        if ((long) x + width > Integer.MAX_VALUE || (long) y + height > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("box too large: " + x + "," + y + "," + width + "," + height);
        }
    }

    /** Whether the box lies inside an image of this size. */
    public boolean fitsIn(int imageWidth, int imageHeight) {
        return x + width <= imageWidth && y + height <= imageHeight;
    }

    /** Whether the pixel (px, py) is inside. */
    public boolean contains(int px, int py) {
        return px >= x && px < x + width && py >= y && py < y + height;
    }

    /** This box grown by {@code margin} pixels on every side, clipped to an image of the given size. */
    public Box grow(int margin, int imageWidth, int imageHeight) {
        int x0 = Math.max(0, x - margin);
        int y0 = Math.max(0, y - margin);
        int x1 = Math.min(imageWidth, x + width + margin);
        int y1 = Math.min(imageHeight, y + height + margin);
        return new Box(x0, y0, x1 - x0, y1 - y0);
    }

    /** {@code X,Y,W,H}, as the command line takes it. */
    @Override
    public String toString() {
        return x + "," + y + "," + width + "," + height;
    }
}
