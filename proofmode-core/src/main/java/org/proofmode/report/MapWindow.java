// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

/**
 * The part of the world map a report shows around a place: 60 by 30 degrees, the place in the middle
 * unless that would reach past the map's edge. In the map's units (hundredths of a degree).
 */
record MapWindow(int x, int y, int width, int height) {
    /** Width of the window in degrees of longitude; its height is half. */
    static final int DEGREES = 60;

    static MapWindow around(double latitude, double longitude) {
        int w = DEGREES * 100;
        int h = w / 2;
        int x = (int) Math.round(LandMap.x(longitude) - w / 2.0);
        int y = (int) Math.round(LandMap.y(latitude) - h / 2.0);
        x = Math.max(0, Math.min(LandMap.WIDTH - w, x));
        y = Math.max(0, Math.min(LandMap.HEIGHT - h, y));
        return new MapWindow(x, y, w, h);
    }
}
