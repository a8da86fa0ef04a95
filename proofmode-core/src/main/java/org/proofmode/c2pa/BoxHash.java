// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;
import org.proofmode.media.JpegSegments;

/**
 * Checks a general box hash ({@code c2pa.hash.boxes}, C2PA 2.2 section 18.7) over a JPEG or PNG: the asset
 * is cut into its boxes (JPEG: one per marker segment, the start-of-scan segment with its entropy-coded
 * data, all C2PA APP11 segments as one box {@code C2PA}; PNG: {@code PNGh} for the signature, then one per
 * chunk, the {@code caBX} chunk as {@code C2PA}). Each map of the assertion names consecutive boxes in
 * file order and the hash of their bytes; the {@code C2PA} box stands alone and is not hashed, nor is a map
 * marked {@code excluded}. A name that is not the next box is {@code assertion.boxesHash.unknownBox}.
 */
final class BoxHash {
    /** The assertion's label. */
    static final String LABEL = "c2pa.hash.boxes";
    private static final String C2PA = "C2PA";
    private static final int MAX_BOXES = 1_000_000;
    private static final int CHUNK = 64 * 1024;

    /** A box of the asset: its name and where its bytes are. */
    record Box(String name, long start, long length) {}

    private BoxHash() {}

    /** The statuses of the box hash {@code assertion} of a JPEG or PNG asset. */
    static List<C2paStatus> check(ByteSource src, AssetFormat format, JsonNode assertion, String claimAlg, String url)
            throws IOException {
        List<Box> boxes;
        try {
            boxes = switch (format) {
                case JPEG -> jpeg(src);
                case PNG -> png(src);
                default -> throw new C2paFormatException("a box hash over " + format + " is not checked by this reader");
            };
        } catch (C2paFormatException e) {
            return List.of(status(Codes.HARD_BINDING_UNCHECKED, Outcome.INFORMATIONAL, e.getMessage(), url));
        }
        JsonNode maps = assertion.path("boxes");
        if (!maps.isArray() || maps.isEmpty()) {
            return List.of(status(Codes.BOXES_HASH_MISMATCH, Outcome.FAILURE, "the box hash names no boxes", url));
        }
        int next = !boxes.isEmpty() && boxes.get(0).name().equals("PNGh")
                && !maps.get(0).path("names").path(0).asText("").equals("PNGh") ? 1 : 0;
        try {
            for (JsonNode map : maps) {
                JsonNode names = map.path("names");
                if (!names.isArray() || names.isEmpty()) {
                    return List.of(status(Codes.BOXES_HASH_MALFORMED, Outcome.FAILURE, "a box map names no boxes", url));
                }
                long from = -1;
                long to = -1;
                boolean c2pa = false;
                for (JsonNode name : names) {
                    if (next >= boxes.size() || !boxes.get(next).name().equals(name.asText())) {
                        return List.of(status(Codes.BOXES_HASH_UNKNOWN_BOX, Outcome.FAILURE,
                                "the box hash names " + name.asText() + " where the asset has "
                                        + (next >= boxes.size() ? "no more boxes" : boxes.get(next).name()), url));
                    }
                    Box b = boxes.get(next++);
                    c2pa |= b.name().equals(C2PA);
                    from = from < 0 ? b.start() : from;
                    to = b.start() + b.length();
                }
                if (c2pa && names.size() != 1) {
                    return List.of(status(Codes.BOXES_HASH_MISMATCH, Outcome.FAILURE, "the C2PA box shares a box map", url));
                }
                if (c2pa || map.path("excluded").asBoolean(false)) {
                    continue;
                }
                byte[] expected = map.path("hash").binaryValue();
                MessageDigest md = DataHash.digest(map.path("alg").asText(assertion.path("alg").asText(claimAlg)));
                if (expected == null || !MessageDigest.isEqual(expected, digest(src, from, to, md))) {
                    return List.of(status(Codes.BOXES_HASH_MISMATCH, Outcome.FAILURE,
                            "boxes " + names + " do not hash to the box hash assertion's value", url));
                }
            }
        } catch (NoSuchAlgorithmException e) {
            return List.of(status(Codes.BOXES_HASH_MALFORMED, Outcome.FAILURE, e.getMessage(), url));
        }
        return List.of(status(Codes.BOXES_HASH_MATCH, Outcome.SUCCESS, "box hash valid", url));
    }

    private static C2paStatus status(String code, Outcome o, String why, String url) {
        return new C2paStatus(code, o, why, url);
    }

    private static byte[] digest(ByteSource src, long from, long to, MessageDigest md) throws IOException {
        for (long p = from; p < to; p += CHUNK) {
            md.update(src.read(p, (int) Math.min(CHUNK, to - p)));
        }
        return md.digest();
    }

    /**
     * The boxes of a JPEG, as C2PA names them, from the one segment walk ({@code media.JpegSegments}) run scan
     * after scan: each SOS box takes in its image data; the walk ends at EOI or where the structure breaks.
     */
    static List<Box> jpeg(ByteSource src) throws IOException, C2paFormatException {
        long size = src.size();
        List<Box> out = new ArrayList<>();
        Apps c2pa = new Apps();
        byte[] soi = src.read(0, (int) Math.min(2, size));
        if (soi.length < 2 || (soi[0] & 0xFF) != 0xFF || (soi[1] & 0xFF) != 0xD8) {
            throw new C2paFormatException("not a JPEG: no SOI marker");
        }
        out.add(new Box("SOI", 0, 2));
        JpegSegments.Walk w = JpegSegments.walk(src, MAX_BOXES - 1, m -> true, s -> add(src, s, out, c2pa));
        while (w.end() == JpegSegments.End.IMAGE_DATA && out.size() < MAX_BOXES) {
            long pos = w.at();
            if (pos + 4 > size) {
                throw new C2paFormatException("JPEG segment length truncated at " + pos);
            }
            byte[] l = src.read(pos + 2, 2);
            long len = 2L + (((l[0] & 0xFF) << 8) | (l[1] & 0xFF));
            if (len < 4 || pos + len > size) {
                throw new C2paFormatException("JPEG segment at " + pos + " runs past the end");
            }
            long end = JpegSegments.imageDataEnd(src, pos + len);
            out.add(new Box("SOS", pos, end - pos));
            w = JpegSegments.walkFrom(src, end, MAX_BOXES - out.size(), m -> true, s -> add(src, s, out, c2pa));
        }
        switch (w.end()) {
            case END_OF_IMAGE -> out.add(new Box("EOI", w.at(), 2));
            case ENDS_IN_LENGTH -> throw new C2paFormatException("JPEG segment length truncated at " + w.segmentAt());
            case RUNS_PAST_END, BAD_LENGTH -> throw new C2paFormatException("JPEG segment at " + w.segmentAt() + " runs past the end");
            case NOT_A_MARKER -> {
                if (w.at() + 2 <= size) {
                    throw new C2paFormatException("no JPEG marker at " + w.at());
                }
            }
            default -> {
                // the file ends between segments or among fill bytes, or at the bound: the boxes found so far
            }
        }
        return out;
    }

    /** The manifest store's APP11 box, once found: where in the list, and its JPEG XT instance. */
    private static final class Apps {
        int box = -1;
        byte[] instance;
    }

    /** Adds a segment as its box; the APP11 segments of the manifest store make one {@code C2PA} box. */
    private static boolean add(ByteSource src, JpegSegments.Segment s, List<Box> out, Apps c2pa) throws IOException {
        long pos = s.offset();
        long len = 2L + s.length();
        if (s.marker() == JpegSegments.APP11 && len > 2 + 2 + 28) {
            byte[] d = src.read(pos + 4, 28);
            boolean jp = d[0] == 'J' && d[1] == 'P';
            byte[] instance = {d[2], d[3]};
            if (jp && c2pa.box >= 0 && Arrays.equals(instance, c2pa.instance)) {
                Box b = out.get(c2pa.box);
                out.set(c2pa.box, new Box(C2PA, b.start(), pos + len - b.start()));
                return true;
            }
            if (jp && c2pa.box < 0 && new String(d, 24, 4, StandardCharsets.ISO_8859_1).equals("c2pa")) {
                c2pa.box = out.size();
                c2pa.instance = instance;
                out.add(new Box(C2PA, pos, len));
                return true;
            }
        }
        out.add(new Box(name(s.marker()), pos, len));
        return true;
    }

    private static String name(int marker) {
        if (marker >= 0xE0 && marker <= 0xEF) {
            return "APP" + (marker - 0xE0);
        }
        if (marker >= 0xD0 && marker <= 0xD7) {
            return "RST" + (marker - 0xD0);
        }
        if (marker >= 0xF0 && marker <= 0xFD) {
            return "JPG" + (marker - 0xF0);
        }
        return switch (marker) {
            case 0xFE -> "COM";
            case 0xC4 -> "DHT";
            case 0xDB -> "DQT";
            case 0xDD -> "DRI";
            case 0xD9 -> "EOI";
            case 0xD8 -> "SOI";
            case 0xDA -> "SOS";
            case 0xC0 -> "SOF0";
            case 0xC1 -> "SOF1";
            case 0xC2 -> "SOF2";
            default -> String.format("0x%02X", marker);
        };
    }

    /** The boxes of a PNG: the signature as {@code PNGh}, then each chunk by its type, {@code caBX} as {@code C2PA}. */
    static List<Box> png(ByteSource src) throws IOException, C2paFormatException {
        long size = src.size();
        List<Box> out = new ArrayList<>();
        out.add(new Box("PNGh", 0, 8));
        long pos = 8;
        while (pos + 12 <= size && out.size() < MAX_BOXES) {
            byte[] h = src.read(pos, 8);
            long len = Jumbf.u32(h, 0);
            if (pos + 12 + len > size) {
                throw new C2paFormatException("PNG chunk at " + pos + " runs past the end");
            }
            String type = new String(h, 4, 4, StandardCharsets.ISO_8859_1);
            out.add(new Box(type.equals("caBX") ? C2PA : type, pos, 12 + len));
            pos += 12 + len;
            if (type.equals("IEND")) {
                break;
            }
        }
        return out;
    }
}
