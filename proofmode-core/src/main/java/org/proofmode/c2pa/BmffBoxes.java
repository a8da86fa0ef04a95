// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.proofmode.imaging.Box;

/**
 * The box tree of an ISO BMFF file (MP4, MOV, HEIF, AVIF) as far as the BMFF hash binding needs it:
 * every top-level box, and the children of the container boxes that exclusions name
 * ({@code moov/trak/mdia/minf/stbl}, {@code moof/traf}, {@code meta}, {@code mfra}…). Only headers are
 * read; a box whose size does not fit its parent ends the walk of that parent.
 */
final class BmffBoxes {
    /** Most boxes walked, against hostile files made of millions of empty boxes. */
    static final int MAX_BOXES = 1_000_000;
    private static final Set<String> CONTAINERS = Set.of("moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "moof",
            "traf", "mfra", "mvex", "udta", "meta", "iprp", "ipco", "sinf", "schi");
    private static final Set<String> FULL_BOXES = Set.of("meta", "iloc", "tfhd", "trun", "stco", "co64", "mvhd", "tkhd",
            "mdhd", "hdlr", "stsd", "stts", "stss", "stsc", "stsz", "ctts", "tfdt", "mfhd", "tfra", "mfro", "sidx", "elst",
            "pitm", "iinf", "iref", "ipma", "saiz", "saio", "sbgp", "sgpd", "trex", "mehd", "vmhd", "smhd", "dref");

    /**
     * One box.
     *
     * @param path its path from the root, e.g. {@code /moov/trak/mdia/minf/stbl/stco}
     * @param offset the offset of its first header byte
     * @param size its size with the header
     * @param version the full box version, for the box types that are full boxes
     * @param flags the full box flags (24 bits)
     */
    record Box(String path, long offset, long size, Optional<Integer> version, Optional<Integer> flags) {
        /** The box's type: the last element of its path. */
        String type() {
            return path.substring(path.lastIndexOf('/') + 1);
        }

        /** The offset just past the box. */
        long end() {
            return offset + size;
        }
    }

    private final List<Box> all = new ArrayList<>();
    private final List<Box> top = new ArrayList<>();

    private BmffBoxes() {}

    /**
     * Reads the tree.
     *
     * @throws C2paFormatException if the top level does not parse up to the end of the file
     */
    static BmffBoxes read(ByteSource src) throws IOException, C2paFormatException {
        BmffBoxes b = new BmffBoxes();
        long size = src.size();
        long end = b.walk(src, 0, size, "", true);
        if (end != size) {
            throw new C2paFormatException("BMFF box at offset " + end + " does not fit the file");
        }
        return b;
    }

    /** Every box read, in file order (parents before their children). */
    List<Box> all() {
        return all;
    }

    /** The top-level boxes in file order. */
    List<Box> top() {
        return top;
    }

    /** The boxes at this path ({@code /moov/trak/mdia/minf/stbl/stco}): every match, in file order. */
    List<Box> at(String xpath) {
        String p = xpath.endsWith("/") ? xpath.substring(0, xpath.length() - 1) : xpath;
        return all.stream().filter(x -> x.path().equals(p)).toList();
    }

    /** Walks [from, to) and returns where the walk stopped (to when every box fitted). */
    private long walk(ByteSource src, long from, long to, String parent, boolean topLevel) throws IOException {
        long pos = from;
        while (pos + 8 <= to && all.size() < MAX_BOXES) {
            byte[] h = src.read(pos, 8);
            long len = Jumbf.u32(h, 0);
            int header = 8;
            if (len == 1) {
                if (pos + 16 > to) {
                    return pos;
                }
                len = Jumbf.u64(src.read(pos + 8, 8), 0);
                header = 16;
            } else if (len == 0) {
                len = to - pos;
            }
            if (len < header || len > to - pos) {
                return pos;
            }
            String type = new String(h, 4, 4, StandardCharsets.ISO_8859_1);
            String path = parent + "/" + type;
            Optional<Integer> version = Optional.empty();
            Optional<Integer> flags = Optional.empty();
            boolean full = FULL_BOXES.contains(type) && len >= header + 4;
            if (full && type.equals("meta") && looksLikeBox(src, pos + header, pos + len)) {
                full = false; // QuickTime's meta is a plain container
            }
            if (full) {
                long vf = Jumbf.u32(src.read(pos + header, 4), 0);
                version = Optional.of((int) (vf >>> 24));
                flags = Optional.of((int) (vf & 0xFFFFFF));
            }
            Box box = new Box(path, pos, len, version, flags);
            all.add(box);
            if (topLevel) {
                top.add(box);
            }
            if (CONTAINERS.contains(type)) {
                walk(src, pos + header + (full ? 4 : 0), pos + len, path, false);
            }
            pos += len;
        }
        return pos;
    }

    /** Tells whether a box header that fits [at, end) starts at {@code at} (a size and four letters). */
    private static boolean looksLikeBox(ByteSource src, long at, long end) throws IOException {
        if (at + 8 > end) {
            return false;
        }
        byte[] h = src.read(at, 8);
        long len = Jumbf.u32(h, 0);
        if (len < 8 || len > end - at) {
            return false;
        }
        for (int i = 4; i < 8; i++) {
            int c = h[i] & 0xFF;
            if (c < 0x20 || c > 0x7E) {
                return false;
            }
        }
        return true;
    }
}
