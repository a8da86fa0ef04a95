// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferInt;
import java.util.Arrays;

/** The pixel work of redaction, on row-major ARGB arrays. */
final class RegionFilters {
    private RegionFilters() {}

    static void fill(int[] px, int stride, Box r) {
        for (int y = r.y(); y < r.y() + r.height(); y++) {
            Arrays.fill(px, y * stride + r.x(), y * stride + r.x() + r.width(), 0xFF000000);
        }
    }

    static void pixelate(int[] px, int stride, Box r, int block) {
        int[] means = blockMeans(px, stride, r, block);
        int cols = ceilDiv(r.width(), block);
        for (int y = 0; y < r.height(); y++) {
            int row = (r.y() + y) * stride + r.x();
            int cell = (y / block) * cols;
            for (int x = 0; x < r.width(); x++) {
                px[row + x] = means[cell + x / block];
            }
        }
    }

    /**
     * Smooth interpolation between block averages (bilinear, between block centres), then a box blur of
     * half a block each way: the output is a function of the block averages only.
     */
    static void blur(int[] px, int stride, Box r, int block) {
        int[] means = blockMeans(px, stride, r, block);
        int cols = ceilDiv(r.width(), block);
        int rows = ceilDiv(r.height(), block);
        int w = r.width();
        int h = r.height();
        float[][] ch = new float[4][w * h];
        for (int y = 0; y < h; y++) {
            float fy = clamp((y + 0.5f) / block - 0.5f, 0, rows - 1);
            int y0 = (int) fy;
            int y1 = Math.min(rows - 1, y0 + 1);
            float ty = fy - y0;
            for (int x = 0; x < w; x++) {
                float fx = clamp((x + 0.5f) / block - 0.5f, 0, cols - 1);
                int x0 = (int) fx;
                int x1 = Math.min(cols - 1, x0 + 1);
                float tx = fx - x0;
                int a = means[y0 * cols + x0];
                int b = means[y0 * cols + x1];
                int c = means[y1 * cols + x0];
                int d = means[y1 * cols + x1];
                for (int k = 0; k < 4; k++) {
                    int sh = 24 - 8 * k;
                    float top = ((a >>> sh) & 0xFF) * (1 - tx) + ((b >>> sh) & 0xFF) * tx;
                    float bottom = ((c >>> sh) & 0xFF) * (1 - tx) + ((d >>> sh) & 0xFF) * tx;
                    ch[k][y * w + x] = top * (1 - ty) + bottom * ty;
                }
            }
        }
        int radius = Math.max(1, block / 2);
        for (float[] c : ch) {
            boxBlur(c, w, h, radius);
        }
        for (int y = 0; y < h; y++) {
            int row = (r.y() + y) * stride + r.x();
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                px[row + x] = (round(ch[0][i]) << 24) | (round(ch[1][i]) << 16) | (round(ch[2][i]) << 8) | round(ch[3][i]);
            }
        }
    }

    /** Average colour (each ARGB channel) of each block of a region, row by row. */
    private static int[] blockMeans(int[] px, int stride, Box r, int block) {
        int cols = ceilDiv(r.width(), block);
        int rows = ceilDiv(r.height(), block);
        long[] sums = new long[cols * rows * 4];
        for (int y = 0; y < r.height(); y++) {
            int row = (r.y() + y) * stride + r.x();
            int cell = (y / block) * cols;
            for (int x = 0; x < r.width(); x++) {
                int p = px[row + x];
                int i = (cell + x / block) * 4;
                sums[i] += p >>> 24;
                sums[i + 1] += (p >>> 16) & 0xFF;
                sums[i + 2] += (p >>> 8) & 0xFF;
                sums[i + 3] += p & 0xFF;
            }
        }
        int[] means = new int[cols * rows];
        for (int cy = 0; cy < rows; cy++) {
            int bh = Math.min(block, r.height() - cy * block);
            for (int cx = 0; cx < cols; cx++) {
                long n = (long) bh * Math.min(block, r.width() - cx * block);
                int i = (cy * cols + cx) * 4;
                means[cy * cols + cx] = (int) ((sums[i] + n / 2) / n) << 24 | (int) ((sums[i + 1] + n / 2) / n) << 16
                        | (int) ((sums[i + 2] + n / 2) / n) << 8 | (int) ((sums[i + 3] + n / 2) / n);
            }
        }
        return means;
    }

    /** Separable box blur with edges clamped to the region. */
    private static void boxBlur(float[] c, int w, int h, int radius) {
        float[] tmp = new float[Math.max(w, h)];
        for (int y = 0; y < h; y++) {
            blurLine(c, y * w, 1, w, radius, tmp);
        }
        for (int x = 0; x < w; x++) {
            blurLine(c, x, w, h, radius, tmp);
        }
    }

    private static void blurLine(float[] c, int start, int step, int n, int radius, float[] tmp) {
        for (int i = 0; i < n; i++) {
            tmp[i] = c[start + i * step];
        }
        float sum = 0;
        for (int i = -radius; i <= radius; i++) {
            sum += tmp[Math.max(0, Math.min(n - 1, i))];
        }
        float k = 2 * radius + 1;
        for (int i = 0; i < n; i++) {
            c[start + i * step] = sum / k;
            sum += tmp[Math.min(n - 1, i + radius + 1)] - tmp[Math.max(0, i - radius)];
        }
    }

    static BufferedImage flattenOnWhite(BufferedImage argb) {
        int w = argb.getWidth();
        int h = argb.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        int[] s = ((DataBufferInt) argb.getRaster().getDataBuffer()).getData();
        int[] d = ((DataBufferInt) out.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < s.length; i++) {
            int a = s[i] >>> 24;
            int r = (((s[i] >>> 16) & 0xFF) * a + 255 * (255 - a) + 127) / 255;
            int g = (((s[i] >>> 8) & 0xFF) * a + 255 * (255 - a) + 127) / 255;
            int b = ((s[i] & 0xFF) * a + 255 * (255 - a) + 127) / 255;
            d[i] = 0xFF000000 | r << 16 | g << 8 | b;
        }
        return out;
    }

    /** An opaque packed-int image as {@code TYPE_3BYTE_BGR}. */
    static BufferedImage toBgrBytes(BufferedImage rgb) {
        BufferedImage out = new BufferedImage(rgb.getWidth(), rgb.getHeight(), BufferedImage.TYPE_3BYTE_BGR);
        int[] s = ((DataBufferInt) rgb.getRaster().getDataBuffer()).getData();
        byte[] d = ((DataBufferByte) out.getRaster().getDataBuffer()).getData();
        for (int i = 0, j = 0; i < s.length; i++, j += 3) {
            d[j] = (byte) s[i];
            d[j + 1] = (byte) (s[i] >>> 8);
            d[j + 2] = (byte) (s[i] >>> 16);
        }
        return out;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static float clamp(float v, float lo, float hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private static int round(float v) {
        return Math.max(0, Math.min(255, Math.round(v)));
    }
}
