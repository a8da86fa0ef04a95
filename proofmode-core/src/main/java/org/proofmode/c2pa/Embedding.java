// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.proofmode.media.JpegSegments;

/**
 * Where and how a manifest store goes into a JPEG (APP11 segments after SOI and any APP0), a PNG
 * (a {@code caBX} chunk after IHDR) or a RIFF file (WAV, AVI, WebP: a {@code C2PA} chunk at the end of
 * the first RIFF, whose size grows by the chunk's).
 */
final class Embedding {
    private static final int APP11 = 0xEB;
    private static final int MAX_SEGMENT_DATA = 65533;
    private static final int JPEG_BOX_INSTANCE = 1;

    private Embedding() {}

    /** After SOI and the APP0 segments that follow it directly (no fill bytes between). */
    private static int jpegInsertionPoint(byte[] asset) throws C2paFormatException {
        long[] after = {2};
        JpegSegments.Walk w;
        try {
            w = JpegSegments.walk(ByteSource.of(asset), Integer.MAX_VALUE, m -> true, s -> {
                if (s.marker() != 0xE0 || s.fillFrom() != s.offset()) {
                    return false;
                }
                after[0] = s.end();
                return true;
            });
        } catch (IOException e) {
            throw new C2paFormatException("JPEG unreadable: " + e.getMessage(), e);
        }
        boolean app0 = w.segmentAt() == after[0] && w.segmentAt() + 1 < asset.length && (asset[(int) w.segmentAt() + 1] & 0xFF) == 0xE0;
        if (app0 && (w.end() == JpegSegments.End.BAD_LENGTH || w.end() == JpegSegments.End.RUNS_PAST_END)) {
            throw new C2paFormatException("JPEG APP0 segment runs past the end");
        }
        return (int) after[0];
    }

    /**
     * The offset at which the store is inserted.
     *
     * @throws C2paFormatException if the asset is malformed there
     */
    static int insertionPoint(AssetFormat format, byte[] asset) throws C2paFormatException {
        if (format == AssetFormat.JPEG) {
            return jpegInsertionPoint(asset);
        }
        if (format == AssetFormat.PNG) {
            if (asset.length < 33 || !new String(asset, 12, 4, StandardCharsets.ISO_8859_1).equals("IHDR")) {
                throw new C2paFormatException("PNG does not start with IHDR");
            }
            long len = Jumbf.u32(asset, 8);
            if (len > asset.length - 20) {
                throw new C2paFormatException("PNG IHDR runs past the end");
            }
            return (int) (8 + 12 + len);
        }
        if (format.riff()) {
            long riffEnd = 8 + Jumbf.u32le(asset, 4);
            if (asset.length < 12 || riffEnd > asset.length || riffEnd > Integer.MAX_VALUE) {
                throw new C2paFormatException("RIFF size runs past the end of the file");
            }
            return (int) riffEnd;
        }
        throw new C2paFormatException("content credentials cannot be written into " + format);
    }

    /**
     * The SHA-256 of what the data hash covers once {@code wrapped} bytes are inserted at {@code at}: the
     * asset itself, for RIFF with its size field grown.
     */
    static byte[] contentHash(AssetFormat format, byte[] asset, int at, long wrapped) {
        if (!format.riff()) {
            return ManifestBuilder.sha256(asset);
        }
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing", e);
        }
        byte[] head = Arrays.copyOf(asset, at);
        setU32le(head, 4, Jumbf.u32le(asset, 4) + wrapped);
        md.update(head);
        md.update(asset, at, asset.length - at);
        return md.digest();
    }

    private static void setU32le(byte[] b, int p, long v) {
        for (int i = 0; i < 4; i++) {
            b[p + i] = (byte) (v >>> (8 * i));
        }
    }

    /** The store wrapped for the container: APP11 segments or a {@code caBX} chunk. */
    static byte[] wrap(AssetFormat format, byte[] store) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (format.riff()) {
            out.writeBytes("C2PA".getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 4; i++) {
                out.write(store.length >>> (8 * i));
            }
            out.writeBytes(store);
            if (store.length % 2 == 1) {
                throw new IllegalArgumentException("a RIFF store is written with an even length (see ManifestBuilder)");
            }
            return out.toByteArray();
        }
        if (format == AssetFormat.PNG) {
            Jumbf.writeU32(out, store.length);
            byte[] type = "caBX".getBytes(StandardCharsets.ISO_8859_1);
            out.writeBytes(type);
            out.writeBytes(store);
            CRC32 crc = new CRC32();
            crc.update(type);
            crc.update(store);
            Jumbf.writeU32(out, crc.getValue());
            return out.toByteArray();
        }
        int headerLen = 8;
        int chunk = MAX_SEGMENT_DATA - 8 - headerLen;
        int body = store.length - headerLen;
        long z = 1;
        for (int off = 0; off < body || off == 0; off += chunk, z++) {
            int n = Math.min(chunk, body - off);
            int lp = 2 + 8 + headerLen + n;
            out.write(0xFF);
            out.write(APP11);
            out.write(lp >>> 8);
            out.write(lp & 0xFF);
            out.write('J');
            out.write('P');
            out.write(JPEG_BOX_INSTANCE >>> 8);
            out.write(JPEG_BOX_INSTANCE & 0xFF);
            Jumbf.writeU32(out, z);
            out.write(store, 0, headerLen);
            out.write(store, headerLen + off, n);
        }
        return out.toByteArray();
    }

    /**
     * The asset without the container structures of its store (the APP11 segments, the {@code caBX}
     * chunk, the RIFF {@code C2PA} chunk with its pad byte, the RIFF size shrunk by as much): where a new
     * store, holding the old one's manifests, goes in their place.
     *
     * @param at where the store's structures sit ({@link EmbeddedStore#location})
     * @throws C2paFormatException if the structures are not one run the writer can take out (JPEG
     *     segments of the store interleaved with others)
     */
    static byte[] remove(AssetFormat format, byte[] asset, DataHash.Range at) throws C2paFormatException {
        if (!format.writable() || at.start() + at.length() > asset.length) {
            throw new C2paFormatException("content credentials cannot be rewritten in " + format);
        }
        int from = (int) at.start();
        int len = (int) at.length();
        if (format == AssetFormat.JPEG) {
            for (int p = from; p < from + len;) {
                int segLen = ((asset[p + 2] & 0xFF) << 8) | (asset[p + 3] & 0xFF);
                if ((asset[p] & 0xFF) != 0xFF || (asset[p + 1] & 0xFF) != APP11 || asset[p + 4] != 'J' || asset[p + 5] != 'P') {
                    throw new C2paFormatException("the JPEG's manifest store is split by other segments");
                }
                p += 2 + segLen;
            }
        }
        if (format.riff() && (len & 1) == 1 && from + len < asset.length) {
            len++; // the odd chunk's pad byte
        }
        byte[] out = new byte[asset.length - len];
        System.arraycopy(asset, 0, out, 0, from);
        System.arraycopy(asset, from + len, out, from, asset.length - from - len);
        if (format.riff()) {
            setU32le(out, 4, Jumbf.u32le(asset, 4) - len);
        }
        return out;
    }

    /** The asset with {@code wrapped} inserted at {@code at} (and for RIFF its size grown). */
    static byte[] insert(AssetFormat format, byte[] asset, int at, byte[] wrapped) {
        byte[] out = new byte[asset.length + wrapped.length];
        System.arraycopy(asset, 0, out, 0, at);
        System.arraycopy(wrapped, 0, out, at, wrapped.length);
        System.arraycopy(asset, at, out, at + wrapped.length, asset.length - at);
        if (format.riff()) {
            setU32le(out, 4, Jumbf.u32le(asset, 4) + wrapped.length);
        }
        return out;
    }
}
