// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C2SP {@code tlog-tiles} layout of a log: the Merkle tree cut into tiles of height 8, each the
 * concatenated hashes of up to 256 nodes of one level of tiles ({@code tile/<L>/<N>[.p/<W>]}), and the
 * entries in bundles of up to 256 ({@code tile/entries/<N>[.p/<W>]}, each entry as a big-endian 16-bit
 * length and its bytes). A complete tile never changes, so a CDN or a static mirror can serve a log; a
 * client rebuilds any proof from the tiles alone.
 */
public final class Tiles {
    /** Levels of the Merkle tree per tile level. */
    public static final int HEIGHT = 8;

    /** Hashes (or entries) in a complete tile. */
    public static final int WIDTH = 1 << HEIGHT;

    /** The largest entry an entry bundle holds. */
    public static final int MAX_ENTRY_BYTES = 0xFFFF;

    /**
     * One tile.
     *
     * @param level the tile level: 0 holds leaf hashes, 1 the hashes of subtrees of 256 leaves, and so on
     * @param index the tile's number within its level
     * @param width how many hashes (or entries) it holds: {@link #WIDTH} when complete
     */
    public record Tile(int level, long index, int width) {
        /** Validates the fields. */
        public Tile {
            if (level < 0 || level > 7 || index < 0 || width < 1 || width > WIDTH) {
                throw new IllegalArgumentException("no such tile: level " + level + ", index " + index + ", width " + width);
            }
        }

        /** Whether it holds all {@link #WIDTH} hashes, and so will never change. */
        public boolean complete() {
            return width == WIDTH;
        }

        /** Its path under the log's prefix: {@code tile/<L>/<N>[.p/<W>]}. */
        public String path() {
            return "tile/" + level + "/" + number(index) + (complete() ? "" : ".p/" + width);
        }

        /** The path of the entry bundle beside a level-0 tile: {@code tile/entries/<N>[.p/<W>]}. */
        public String entriesPath() {
            if (level != 0) {
                throw new IllegalStateException("entry bundles sit beside level-0 tiles only");
            }
            return "tile/entries/" + number(index) + (complete() ? "" : ".p/" + width);
        }
    }

    /**
     * A tile path as a client asks for it.
     *
     * @param tile the tile
     * @param entries whether it names the entry bundle beside a level-0 tile, not the tile of hashes
     */
    public record Request(Tile tile, boolean entries) {}

    private static final Pattern PATH = Pattern.compile(
            "tile/(entries|[0-7])/((?:x[0-9]{3}/){0,5}[0-9]{3})(?:\\.p/([1-9][0-9]{0,2}))?");

    private Tiles() {}

    /**
     * Reads a tile path ({@code tile/<L>/<N>[.p/<W>]} or {@code tile/entries/<N>[.p/<W>]}) in the one
     * form {@link Tile#path} writes: three-digit groups, a partial width of 1 to 255.
     *
     * @return the tile, or empty if the path is not one
     */
    public static Optional<Request> parse(String path) {
        Matcher m = PATH.matcher(path);
        if (!m.matches() || m.group(2).startsWith("x000/")) {
            return Optional.empty();
        }
        long index = 0;
        for (String group : m.group(2).split("/")) {
            index = index * 1000 + Long.parseLong(group.startsWith("x") ? group.substring(1) : group);
        }
        int width = m.group(3) == null ? WIDTH : Integer.parseInt(m.group(3));
        if (m.group(3) != null && width >= WIDTH) {
            return Optional.empty();
        }
        boolean entries = m.group(1).equals("entries");
        return Optional.of(new Request(new Tile(entries ? 0 : Integer.parseInt(m.group(1)), index, width), entries));
    }

    /**
     * The tiles of a tree of {@code size} leaves, as a log serves them: at each level, the complete tiles,
     * then the partial one when the level's last tile is not full.
     */
    public static List<Tile> of(long size) {
        List<Tile> out = new ArrayList<>();
        for (int level = 0; level < 8 && size >> (HEIGHT * level) > 0; level++) {
            long nodes = size >> (HEIGHT * level);
            for (long n = 0; n < nodes / WIDTH; n++) {
                out.add(new Tile(level, n, WIDTH));
            }
            int rest = (int) (nodes % WIDTH);
            if (rest > 0) {
                out.add(new Tile(level, nodes / WIDTH, rest));
            }
        }
        return out;
    }

    /** A tile's content: the hashes of its nodes, 32 bytes each, left to right. */
    public static byte[] data(Tile t, Merkle.Nodes nodes) {
        ByteBuffer out = ByteBuffer.allocate(t.width() * Merkle.HASH_BYTES);
        for (int i = 0; i < t.width(); i++) {
            out.put(nodes.node(HEIGHT * t.level(), t.index() * WIDTH + i));
        }
        return out.array();
    }

    /** Reads a tile's content: from a log server, a mirror or a cache. */
    @FunctionalInterface
    public interface Source {
        /**
         * The content of tile {@code t}, as the log serves it for the tree size asked for.
         *
         * @throws java.io.UncheckedIOException if it could not be had
         */
        byte[] read(Tile t);
    }

    /**
     * The nodes of a tree of {@code size} leaves, read from its tiles: what a client that trusts nothing
     * but a signed checkpoint uses to make inclusion and consistency proofs itself. A node between tile
     * levels is computed from the tile below it. Tiles are read once each; a tile of the wrong length is
     * refused. Nothing here trusts the tiles: a proof made from a wrong tile does not verify against the
     * checkpoint's root. The nodes are for one thread (the tiles read are kept without locking).
     *
     * @throws IllegalStateException from {@link Merkle.Nodes#node} when a tile has the wrong length, or the
     *     node asked for is not complete in a tree of this size
     */
    public static Merkle.Nodes nodes(long size, Source source) {
        Map<Tile, byte[]> read = new HashMap<>();
        return (level, index) -> {
            int tileLevel = level / HEIGHT;
            int below = level % HEIGHT;
            long first = index << below;
            long atLevel = size >> (HEIGHT * tileLevel);
            if (tileLevel >= 8 || first + (1L << below) > atLevel) {
                throw new IllegalStateException("node " + level + "/" + index + " is not complete in a tree of " + size);
            }
            long n = first / WIDTH;
            int width = (int) Math.min(WIDTH, atLevel - n * WIDTH);
            Tile t = new Tile(tileLevel, n, width);
            byte[] data = read.computeIfAbsent(t, source::read);
            if (data.length != width * Merkle.HASH_BYTES) {
                throw new IllegalStateException(t.path() + " has " + data.length + " bytes, not " + width * Merkle.HASH_BYTES);
            }
            // The tile's hashes are the leaves of the complete subtree asked for.
            int from = (int) (first % WIDTH);
            Merkle.LeafHashes inTile = i -> Arrays.copyOfRange(data, (int) (from + i) * Merkle.HASH_BYTES,
                    (int) (from + i + 1) * Merkle.HASH_BYTES);
            return inTile.node(below, 0);
        };
    }

    /** An entry bundle: each entry as a big-endian 16-bit length and its bytes. */
    public static byte[] entryBundle(List<byte[]> entries) {
        if (entries.isEmpty() || entries.size() > WIDTH) {
            throw new IllegalArgumentException("an entry bundle holds 1 to " + WIDTH + " entries");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] e : entries) {
            if (e.length > MAX_ENTRY_BYTES) {
                throw new IllegalArgumentException("an entry has at most " + MAX_ENTRY_BYTES + " bytes");
            }
            out.write(e.length >> 8);
            out.write(e.length & 0xFF);
            out.writeBytes(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads an entry bundle.
     *
     * @param width how many entries the bundle's path says it holds
     * @throws NoteFormatException if the bytes are not exactly {@code width} length-prefixed entries
     */
    public static List<byte[]> readEntryBundle(byte[] data, int width) throws NoteFormatException {
        List<byte[]> out = new ArrayList<>(width);
        int at = 0;
        while (at < data.length) {
            if (out.size() == width || at + 2 > data.length) {
                throw new NoteFormatException("entry bundle longer than its " + width + " entries");
            }
            int len = (data[at] & 0xFF) << 8 | data[at + 1] & 0xFF;
            if (at + 2 + len > data.length) {
                throw new NoteFormatException("entry bundle truncated in entry " + out.size());
            }
            out.add(Arrays.copyOfRange(data, at + 2, at + 2 + len));
            at += 2 + len;
        }
        if (out.size() != width) {
            throw new NoteFormatException("entry bundle holds " + out.size() + " entries, not " + width);
        }
        return out;
    }

    /** A tile number as C2SP paths write it: groups of three digits, all but the last prefixed with 'x'. */
    static String number(long n) {
        // Written from the last group to the first, without formatting (a log serving tiles writes many).
        char[] out = new char[40];
        int at = out.length;
        long rest = n;
        boolean last = true;
        do {
            int group = (int) (rest % 1000);
            rest /= 1000;
            if (!last) {
                out[--at] = '/';
            }
            out[--at] = (char) ('0' + group % 10);
            out[--at] = (char) ('0' + group / 10 % 10);
            out[--at] = (char) ('0' + group / 100);
            if (!last) {
                out[--at] = 'x';
            }
            last = false;
        } while (rest > 0);
        return new String(out, at, out.length - at);
    }
}
