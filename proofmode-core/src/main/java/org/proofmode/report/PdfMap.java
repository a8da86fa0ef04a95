// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import org.apache.pdfbox.pdmodel.PDPageContentStream;

/** Draws the region around a recorded place from the land outline, as vector paths, with the place marked. */
final class PdfMap {
    /** Bezier handle length for a quarter circle. */
    private static final float K = 0.5523f;

    private PdfMap() {}

    static void draw(PDPageContentStream cs, Block.Place p, float left, float bottom, float width, float height) throws IOException {
        MapWindow w = MapWindow.around(p.latitude(), p.longitude());
        float scale = width / w.width();
        float top = bottom + height;
        cs.saveGraphicsState();
        cs.addRect(left, bottom, width, height);
        cs.clip();
        cs.setNonStrokingColor(0.86f, 0.93f, 0.98f);
        cs.addRect(left, bottom, width, height);
        cs.fill();
        cs.setNonStrokingColor(0.91f, 0.89f, 0.83f);
        cs.setStrokingColor(0.54f, 0.52f, 0.44f);
        cs.setLineWidth(0.4f);
        for (int[] ring : LandMap.get().rings()) {
            if (!overlaps(ring, w)) {
                continue;
            }
            for (int i = 0; i < ring.length; i += 2) {
                float x = left + (ring[i] - w.x()) * scale;
                float y = top - (ring[i + 1] - w.y()) * scale;
                if (i == 0) {
                    cs.moveTo(x, y);
                } else {
                    cs.lineTo(x, y);
                }
            }
            cs.closePath();
        }
        cs.fillAndStroke();
        float cx = left + (float) (LandMap.x(p.longitude()) - w.x()) * scale;
        float cy = top - (float) (LandMap.y(p.latitude()) - w.y()) * scale;
        circle(cs, cx, cy, 5);
        cs.setNonStrokingColor(0.78f, 0.16f, 0.16f);
        cs.setStrokingColor(1f, 1f, 1f);
        cs.setLineWidth(1.5f);
        cs.fillAndStroke();
        cs.restoreGraphicsState();
        cs.setStrokingColor(0.6f, 0.6f, 0.6f);
        cs.setLineWidth(0.5f);
        cs.addRect(left, bottom, width, height);
        cs.stroke();
    }

    private static boolean overlaps(int[] ring, MapWindow w) {
        int minX = Integer.MAX_VALUE;
        int maxX = Integer.MIN_VALUE;
        int minY = Integer.MAX_VALUE;
        int maxY = Integer.MIN_VALUE;
        for (int i = 0; i < ring.length; i += 2) {
            minX = Math.min(minX, ring[i]);
            maxX = Math.max(maxX, ring[i]);
            minY = Math.min(minY, ring[i + 1]);
            maxY = Math.max(maxY, ring[i + 1]);
        }
        return maxX >= w.x() && minX <= w.x() + w.width() && maxY >= w.y() && minY <= w.y() + w.height();
    }

    private static void circle(PDPageContentStream cs, float cx, float cy, float r) throws IOException {
        float k = K * r;
        cs.moveTo(cx + r, cy);
        cs.curveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
        cs.curveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
        cs.curveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
        cs.curveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
        cs.closePath();
    }
}
