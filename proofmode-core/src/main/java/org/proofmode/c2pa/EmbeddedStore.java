// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.media.JpegSegments;

/**
 * Finds the C2PA manifest store embedded in a JPEG (APP11), PNG ({@code caBX}), ISO BMFF ({@code uuid}),
 * TIFF (tag 0xCD41), RIFF ({@code C2PA} chunk) or MP3 (ID3v2 {@code GEOB}) container. Only the container's structure is walked; image data is skipped.
 *
 * @param format the container
 * @param jumbf the store's bytes: one JUMBF superbox
 * @param location where the container's structures that carry the store sit in the asset (the APP11
 *     segments, the {@code caBX} chunk, the {@code uuid} box…): what a data hash must exclude
 */
public record EmbeddedStore(AssetFormat format, byte[] jumbf, DataHash.Range location) {
    static final byte[] BMFF_C2PA_UUID = {(byte) 0xD8, (byte) 0xFE, (byte) 0xC3, (byte) 0xD6, 0x1B, 0x0E, 0x48, 0x3C,
        (byte) 0x92, (byte) 0x97, 0x58, 0x28, (byte) 0x87, 0x7E, (byte) 0xC4, (byte) 0x81};
    private static final int MAX_CHUNKS = 1_000_000;

    /** Validates and copies the fields. */
    public EmbeddedStore {
        Objects.requireNonNull(format, "format");
        jumbf = jumbf.clone();
        Objects.requireNonNull(location, "location");
    }

    @Override
    public byte[] jumbf() {
        return jumbf.clone();
    }

    /**
     * Finds the store. A container damaged outside the store is not this reader's concern: the walk
     * stops there and reports what it found before.
     *
     * @return empty when the container is not one of {@link AssetFormat} or holds no store
     * @throws C2paFormatException if the container is malformed where the store would be, or the store
     *     exceeds {@link Jumbf#MAX_STORE_BYTES}
     * @throws IOException if reading fails
     */
    static Optional<EmbeddedStore> find(ByteSource src) throws C2paFormatException, IOException {
        long size = src.size();
        byte[] head = src.read(0, (int) Math.min(16, size));
        Optional<AssetFormat> f = AssetFormat.sniff(head);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        try {
            Optional<Found> store = switch (f.get()) {
                case JPEG -> jpeg(src);
                case PNG -> png(src, size);
                case MP4 -> bmff(src, size);
                case TIFF -> OtherContainers.tiff(src, size);
                case WAV, AVI, WEBP -> OtherContainers.riff(src, size);
                case MP3 -> OtherContainers.id3(src, size);
            };
            return store.map(b -> new EmbeddedStore(f.get(), b.bytes(), b.at()));
        } catch (EOFException e) {
            throw new C2paFormatException(f.get() + " container truncated: " + e.getMessage(), e);
        }
    }

    /** A store's bytes and where its container structures sit. */
    record Found(byte[] bytes, DataHash.Range at) {}

    private static Optional<Found> jpeg(ByteSource src) throws IOException, C2paFormatException {
        Map<Integer, ByteArrayOutputStream> stores = new LinkedHashMap<>();
        Map<Integer, long[]> spans = new LinkedHashMap<>();
        // A damaged structure ends the walk: what was collected so far is all there is.
        JpegSegments.walk(src, MAX_CHUNKS, m -> m == JpegSegments.APP11, s -> {
            if (s.length() >= 2 + 16) {
                Optional<Integer> en = appendApp11(stores, src.read(s.payload(), s.length() - 2));
                if (en.isPresent()) {
                    long[] span = spans.computeIfAbsent(en.get(), k -> new long[] {-1, 0});
                    if (span[0] < 0) {
                        span[0] = s.offset();
                    }
                    span[1] += 2 + s.length();
                }
            }
            return true;
        });
        for (Map.Entry<Integer, ByteArrayOutputStream> e : stores.entrySet()) {
            byte[] b = e.getValue().toByteArray();
            if (isC2paStore(b)) {
                long[] span = spans.get(e.getKey());
                return Optional.of(new Found(b, new DataHash.Range(span[0], span[1])));
            }
        }
        return Optional.empty();
    }

    /** Adds a segment to its box's bytes; returns the box instance number it was added to. */
    private static Optional<Integer> appendApp11(Map<Integer, ByteArrayOutputStream> stores, byte[] seg) throws C2paFormatException {
        if (seg[0] != 'J' || seg[1] != 'P') {
            return Optional.empty();
        }
        int en = ((seg[2] & 0xFF) << 8) | (seg[3] & 0xFF);
        long z = Jumbf.u32(seg, 4);
        ByteArrayOutputStream s = stores.get(en);
        if (s == null) {
            // The first segment of a box carries the box's header. Writers number the segments from 1
            // (ISO/IEC 19566-5 B.2), but some number them from 0 (Bing Image Creator): the header tells
            // where a box starts, not the packet sequence number.
            if (z > 1 || seg.length < 16 || seg[12] != 'j' || seg[13] != 'u' || seg[14] != 'm' || seg[15] != 'b') {
                return Optional.empty();
            }
            s = new ByteArrayOutputStream();
            stores.put(en, s);
            s.write(seg, 8, seg.length - 8);
        } else {
            int header = Jumbf.u32(seg, 8) == 1 ? 16 : 8;
            if (seg.length < 8 + header) {
                throw new C2paFormatException("APP11 continuation segment too short");
            }
            s.write(seg, 8 + header, seg.length - 8 - header);
        }
        if (s.size() > Jumbf.MAX_STORE_BYTES) {
            throw new C2paFormatException("C2PA store exceeds " + Jumbf.MAX_STORE_BYTES + " bytes");
        }
        return Optional.of(en);
    }

    static boolean isC2paStore(byte[] b) {
        return b.length >= 8 + 8 + 17 && b[4] == 'j' && b[5] == 'u' && b[6] == 'm' && b[7] == 'b'
                && Arrays.equals(b, 16, 20, new byte[] {'c', '2', 'p', 'a'}, 0, 4);
    }

    private static Optional<Found> png(ByteSource src, long size) throws IOException, C2paFormatException {
        long pos = 8;
        int chunks = 0;
        while (pos + 12 <= size && chunks++ < MAX_CHUNKS) {
            byte[] h = src.read(pos, 8);
            long len = Jumbf.u32(h, 0);
            String type = new String(h, 4, 4, StandardCharsets.ISO_8859_1);
            if (pos + 12 + len > size) {
                break;
            }
            if (type.equals("caBX")) {
                if (len > Jumbf.MAX_STORE_BYTES) {
                    throw new C2paFormatException("C2PA store exceeds " + Jumbf.MAX_STORE_BYTES + " bytes");
                }
                byte[] b = src.read(pos + 8, (int) len);
                if (isC2paStore(b)) {
                    return Optional.of(new Found(b, new DataHash.Range(pos, 12 + len)));
                }
            }
            if (type.equals("IEND")) {
                break;
            }
            pos += 12 + len;
        }
        return Optional.empty();
    }

    private static Optional<Found> bmff(ByteSource src, long size) throws IOException, C2paFormatException {
        long pos = 0;
        int boxes = 0;
        while (pos + 8 <= size && boxes++ < MAX_CHUNKS) {
            byte[] h = src.read(pos, 8);
            long len = Jumbf.u32(h, 0);
            int header = 8;
            if (len == 1) {
                len = Jumbf.u64(src.read(pos + 8, 8), 0);
                header = 16;
            } else if (len == 0) {
                len = size - pos;
            }
            if (len < header || pos + len > size) {
                break;
            }
            if (h[4] == 'u' && h[5] == 'u' && h[6] == 'i' && h[7] == 'd' && len >= header + 16 + 4) {
                byte[] uuid = src.read(pos + header, 16);
                if (Arrays.equals(uuid, BMFF_C2PA_UUID)) {
                    long at = pos;
                    long boxLen = len;
                    return bmffManifest(src, pos + header + 16, pos + len).map(b -> new Found(b, new DataHash.Range(at, boxLen)));
                }
            }
            pos += len;
        }
        return Optional.empty();
    }

    private static Optional<byte[]> bmffManifest(ByteSource src, long from, long to) throws IOException, C2paFormatException {
        long p = from + 4;
        StringBuilder purpose = new StringBuilder();
        while (true) {
            if (p >= to || purpose.length() > 64) {
                throw new C2paFormatException("C2PA uuid box without a purpose");
            }
            int c = src.read(p++, 1)[0];
            if (c == 0) {
                break;
            }
            purpose.append((char) (c & 0xFF));
        }
        if (!purpose.toString().equals("manifest")) {
            return Optional.empty();
        }
        p += 8;
        long len = to - p;
        if (len <= 0 || len > Jumbf.MAX_STORE_BYTES) {
            throw new C2paFormatException("C2PA uuid box holds " + len + " bytes of store");
        }
        byte[] b = src.read(p, (int) len);
        if (!isC2paStore(b)) {
            return Optional.empty();
        }
        // The box may hold padding after the store (C2PA 2.2, A.5.3); the store is its superbox's own length.
        long store = Jumbf.u32(b, 0);
        return Optional.of(store >= 8 && store < b.length ? Arrays.copyOf(b, (int) store) : b);
    }
}
