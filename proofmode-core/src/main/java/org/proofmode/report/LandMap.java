// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The world's land outline (Natural Earth 1:110m, public domain; see {@code land/NOTICE-land.txt} beside it),
 * projected equirectangular in hundredths of a degree: {@code x = (lon + 180) * 100}, {@code y = (90 - lat) * 100}.
 * The server's page draws the same file. Nothing is fetched from the network.
 */
public final class LandMap {
    /** The resource, in a folder of its own beside this class (the server serves that folder). */
    public static final String RESOURCE = "land/land-110m.json";

    /** The map's width and height in its units (hundredths of a degree). */
    public static final int WIDTH = 36000;
    /** See {@link #WIDTH}. */
    public static final int HEIGHT = 18000;

    private static final LandMap INSTANCE = load();

    private final String path;
    private final List<int[]> rings;

    private LandMap(String path, List<int[]> rings) {
        this.path = path;
        this.rings = rings;
    }

    /** The outline, read once from the resource. */
    public static LandMap get() {
        return INSTANCE;
    }

    /** The outline as one SVG path ({@code M}, relative {@code l} steps, {@code z}). */
    public String svgPath() {
        return path;
    }

    /** The outline as closed rings of absolute points {@code x0, y0, x1, y1, ...}. */
    public List<int[]> rings() {
        return rings;
    }

    /** The map's x for a longitude. */
    public static double x(double longitude) {
        return (longitude + 180) * 100;
    }

    /** The map's y for a latitude. */
    public static double y(double latitude) {
        return (90 - latitude) * 100;
    }

    private static LandMap load() {
        try (InputStream in = LandMap.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            JsonNode root = new ObjectMapper().readTree(in);
            String d = root.path("d").asText();
            return new LandMap(d, parse(d));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the path's {@code M x y l dx dy ... z} rings (the only commands the file uses). */
    static List<int[]> parse(String d) {
        List<int[]> out = new ArrayList<>();
        List<Integer> ring = new ArrayList<>();
        int i = 0;
        int x = 0;
        int y = 0;
        char mode = 'M';
        List<Integer> pending = new ArrayList<>();
        while (i < d.length()) {
            char c = d.charAt(i);
            if (c == 'M' || c == 'l') {
                mode = c;
                i++;
            } else if (c == 'z') {
                out.add(ring.stream().mapToInt(Integer::intValue).toArray());
                ring = new ArrayList<>();
                i++;
            } else if (c == ' ' || c == ',') {
                i++;
            } else {
                int j = i + 1;
                while (j < d.length() && Character.isDigit(d.charAt(j))) {
                    j++;
                }
                pending.add(Integer.parseInt(d.substring(i, j)));
                i = j;
                if (pending.size() == 2) {
                    if (mode == 'M') {
                        x = pending.get(0);
                        y = pending.get(1);
                    } else {
                        x += pending.get(0);
                        y += pending.get(1);
                    }
                    ring.add(x);
                    ring.add(y);
                    pending.clear();
                }
            }
        }
        return List.copyOf(out);
    }
}
