// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

/** Image comparisons for tests: PSNR, correlation of fine detail, and an attacker's upscaled guess. */
final class Quality {
    private Quality() {}

    /** PSNR in dB of b against a over a region, on R, G and B. */
    static double psnr(Picture a, Picture b, Box r) {
        double sq = 0;
        for (int y = r.y(); y < r.y() + r.height(); y++) {
            for (int x = r.x(); x < r.x() + r.width(); x++) {
                int p = a.argb(x, y);
                int q = b.argb(x, y);
                for (int sh = 0; sh < 24; sh += 8) {
                    int d = ((p >>> sh) & 0xFF) - ((q >>> sh) & 0xFF);
                    sq += d * d;
                }
            }
        }
        double mse = sq / (3.0 * r.width() * r.height());
        return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(255.0 * 255.0 / mse);
    }

    /**
     * Pearson correlation of the fine detail (luma minus its 5 by 5 local mean) of two pictures over a
     * region: near 1 when the detail is the same, near 0 when one has none of the other's.
     */
    static double highFrequencyCorrelation(Picture a, Picture b, Box r) {
        double[] da = detail(a, r);
        double[] db = detail(b, r);
        double ma = 0;
        double mb = 0;
        for (int i = 0; i < da.length; i++) {
            ma += da[i];
            mb += db[i];
        }
        ma /= da.length;
        mb /= db.length;
        double num = 0;
        double va = 0;
        double vb = 0;
        for (int i = 0; i < da.length; i++) {
            num += (da[i] - ma) * (db[i] - mb);
            va += (da[i] - ma) * (da[i] - ma);
            vb += (db[i] - mb) * (db[i] - mb);
        }
        return va == 0 || vb == 0 ? 0 : num / Math.sqrt(va * vb);
    }

    private static double[] detail(Picture p, Box r) {
        int w = r.width();
        int h = r.height();
        double[] l = new double[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int c = p.argb(r.x() + x, r.y() + y);
                l[y * w + x] = 0.299 * ((c >>> 16) & 0xFF) + 0.587 * ((c >>> 8) & 0xFF) + 0.114 * (c & 0xFF);
            }
        }
        double[] out = new double[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double s = 0;
                int n = 0;
                for (int dy = -2; dy <= 2; dy++) {
                    for (int dx = -2; dx <= 2; dx++) {
                        int xx = x + dx;
                        int yy = y + dy;
                        if (xx >= 0 && yy >= 0 && xx < w && yy < h) {
                            s += l[yy * w + xx];
                            n++;
                        }
                    }
                }
                out[y * w + x] = l[y * w + x] - s / n;
            }
        }
        return out;
    }

    /** A copy of p whose region is re-made from its block colours by bilinear interpolation between block centres. */
    static Picture bilinearFromBlocks(Picture p, Box r, int block) {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(p.width(), p.height(), java.awt.image.BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < p.height(); y++) {
            for (int x = 0; x < p.width(); x++) {
                img.setRGB(x, y, p.argb(x, y));
            }
        }
        int cols = (r.width() + block - 1) / block;
        int rows = (r.height() + block - 1) / block;
        for (int y = 0; y < r.height(); y++) {
            double fy = Math.max(0, Math.min(rows - 1, (y + 0.5) / block - 0.5));
            int y0 = (int) fy;
            int y1 = Math.min(rows - 1, y0 + 1);
            for (int x = 0; x < r.width(); x++) {
                double fx = Math.max(0, Math.min(cols - 1, (x + 0.5) / block - 0.5));
                int x0 = (int) fx;
                int x1 = Math.min(cols - 1, x0 + 1);
                int v = 0;
                for (int sh = 0; sh < 24; sh += 8) {
                    double a = cell(p, r, block, x0, y0, sh) * (1 - (fx - x0)) + cell(p, r, block, x1, y0, sh) * (fx - x0);
                    double b = cell(p, r, block, x0, y1, sh) * (1 - (fx - x0)) + cell(p, r, block, x1, y1, sh) * (fx - x0);
                    v |= (int) Math.round(a * (1 - (fy - y0)) + b * (fy - y0)) << sh;
                }
                img.setRGB(r.x() + x, r.y() + y, v);
            }
        }
        return Picture.of(img, false, 1);
    }

    private static int cell(Picture p, Box r, int block, int cx, int cy, int shift) {
        return (p.argb(r.x() + cx * block, r.y() + cy * block) >>> shift) & 0xFF;
    }
}
