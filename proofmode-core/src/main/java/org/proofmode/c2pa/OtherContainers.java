// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Finds the manifest store in TIFF/DNG (the value of tag 0xCD41 of the last IFD, else of IFD0), RIFF
 * (WAV, AVI, WebP: a top-level {@code C2PA} chunk) and MP3 (an ID3v2 {@code GEOB} frame of MIME type
 * {@code application/c2pa}, or the older {@code application/x-c2pa-manifest-store}). Each returns where
 * the store sits as a data hash must exclude it: the tag's value bytes, the whole chunk with its header
 * (our writer keeps the chunk even, so that no pad byte follows it), the frame's object bytes.
 */
final class OtherContainers {
    private static final int C2PA_TAG = 0xCD41;
    private static final int TYPE_UNDEFINED = 7;
    private static final int MAX_IFDS = 1024;
    private static final int MAX_ENTRIES = 4096;
    private static final int MAX_CHUNKS = 1_000_000;

    private OtherContainers() {}

    static Optional<EmbeddedStore.Found> tiff(ByteSource src, long size) throws IOException, C2paFormatException {
        byte[] h = src.read(0, 8);
        boolean le = h[0] == 'I';
        long ifd = u32(h, 4, le);
        Optional<long[]> first = Optional.empty();
        Optional<long[]> last = Optional.empty();
        for (int n = 0; ifd != 0 && n < MAX_IFDS; n++) {
            if (ifd < 8 || ifd + 2 > size) {
                break;
            }
            int count = u16(src.read(ifd, 2), 0, le);
            if (count > MAX_ENTRIES || ifd + 2 + 12L * count + 4 > size) {
                break;
            }
            byte[] entries = src.read(ifd + 2, 12 * count + 4);
            Optional<long[]> here = Optional.empty();
            for (int i = 0; i < count; i++) {
                int p = 12 * i;
                if (u16(entries, p, le) == C2PA_TAG) {
                    if (u16(entries, p + 2, le) != TYPE_UNDEFINED) {
                        throw new C2paFormatException("TIFF tag 0xCD41 is not of type UNDEFINED");
                    }
                    long len = u32(entries, p + 4, le);
                    long at = len <= 4 ? ifd + 2 + p + 8 : u32(entries, p + 8, le);
                    here = Optional.of(new long[] {at, len});
                }
            }
            if (n == 0) {
                first = here;
            }
            last = here;
            ifd = u32(entries, 12 * count, le);
        }
        Optional<long[]> tag = last.isPresent() ? last : first;
        if (tag.isEmpty()) {
            return Optional.empty();
        }
        long at = tag.get()[0];
        long len = tag.get()[1];
        if (len > Jumbf.MAX_STORE_BYTES || at + len > size) {
            throw new C2paFormatException("TIFF C2PA tag value of " + len + " bytes at " + at + " does not fit the file");
        }
        byte[] b = src.read(at, (int) len);
        return EmbeddedStore.isC2paStore(b) ? Optional.of(new EmbeddedStore.Found(b, new DataHash.Range(at, len))) : Optional.empty();
    }

    static Optional<EmbeddedStore.Found> riff(ByteSource src, long size) throws IOException, C2paFormatException {
        long end = Math.min(size, 8 + u32(src.read(4, 4), 0, true));
        long pos = 12;
        int chunks = 0;
        while (pos + 8 <= end && chunks++ < MAX_CHUNKS) {
            byte[] h = src.read(pos, 8);
            long len = u32(h, 4, true);
            if (pos + 8 + len > size) {
                break;
            }
            if (new String(h, 0, 4, StandardCharsets.ISO_8859_1).equals("C2PA")) {
                if (len > Jumbf.MAX_STORE_BYTES) {
                    throw new C2paFormatException("C2PA chunk of " + len + " bytes");
                }
                byte[] b = src.read(pos + 8, (int) len);
                return EmbeddedStore.isC2paStore(b) ? Optional.of(new EmbeddedStore.Found(b, new DataHash.Range(pos, 8 + len)))
                        : Optional.empty();
            }
            pos += 8 + len + (len & 1);
        }
        return Optional.empty();
    }

    static Optional<EmbeddedStore.Found> id3(ByteSource src, long size) throws IOException, C2paFormatException {
        byte[] h = src.read(0, 10);
        int major = h[3] & 0xFF;
        if (major < 3 || major > 4) {
            return Optional.empty();
        }
        long tagEnd = Math.min(size, 10 + syncsafe(h, 6));
        long pos = 10;
        if ((h[5] & 0x40) != 0 && pos + 4 <= tagEnd) {
            byte[] x = src.read(pos, 4);
            pos += major == 4 ? syncsafe(x, 0) : 4 + u32(x, 0, false);
        }
        int frames = 0;
        while (pos + 10 <= tagEnd && frames++ < MAX_CHUNKS) {
            byte[] f = src.read(pos, 10);
            if (f[0] == 0) {
                break; // padding
            }
            String id = new String(f, 0, 4, StandardCharsets.ISO_8859_1);
            long len = major == 4 ? syncsafe(f, 4) : u32(f, 4, false);
            if (len < 0 || pos + 10 + len > tagEnd) {
                break;
            }
            if (id.equals("GEOB") && len <= Jumbf.MAX_STORE_BYTES + 1024L) {
                Optional<EmbeddedStore.Found> found = geob(src.read(pos + 10, (int) len), pos + 10);
                if (found.isPresent()) {
                    return found;
                }
            }
            pos += 10 + len;
        }
        return Optional.empty();
    }

    /** A GEOB frame body: encoding, MIME type, file name, description, object. */
    private static Optional<EmbeddedStore.Found> geob(byte[] body, long at) {
        if (body.length < 4) {
            return Optional.empty();
        }
        int enc = body[0] & 0xFF;
        int p = 1;
        int mimeEnd = indexOfNul(body, p, 1);
        if (mimeEnd < 0) {
            return Optional.empty();
        }
        String mime = new String(body, p, mimeEnd - p, StandardCharsets.ISO_8859_1);
        if (!mime.equals("application/c2pa") && !mime.equals("application/x-c2pa-manifest-store")) {
            return Optional.empty();
        }
        int width = enc == 1 || enc == 2 ? 2 : 1;
        p = mimeEnd + 1;
        for (int field = 0; field < 2; field++) {
            int e = indexOfNul(body, p, width);
            if (e < 0) {
                return Optional.empty();
            }
            p = e + width;
        }
        byte[] data = Arrays.copyOfRange(body, p, body.length);
        return EmbeddedStore.isC2paStore(data)
                ? Optional.of(new EmbeddedStore.Found(data, new DataHash.Range(at + p, data.length))) : Optional.empty();
    }

    private static int indexOfNul(byte[] b, int from, int width) {
        for (int i = from; i + width <= b.length; i += width) {
            if (b[i] == 0 && (width == 1 || b[i + 1] == 0)) {
                return i;
            }
        }
        return -1;
    }

    private static long syncsafe(byte[] b, int p) {
        return ((b[p] & 0x7FL) << 21) | ((b[p + 1] & 0x7FL) << 14) | ((b[p + 2] & 0x7FL) << 7) | (b[p + 3] & 0x7FL);
    }

    private static int u16(byte[] b, int p, boolean le) {
        return le ? (b[p] & 0xFF) | ((b[p + 1] & 0xFF) << 8) : ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    private static long u32(byte[] b, int p, boolean le) {
        long x = 0;
        for (int i = 0; i < 4; i++) {
            x |= (b[p + (le ? i : 3 - i)] & 0xFFL) << (8 * i);
        }
        return x;
    }
}
