package org.proofmode.metadata;

import java.io.IOException;
import java.io.InputStream;

/** Skips an ID3v2 tag at the start of an MP3 file, which metadata-extractor's MP3 reader does not expect. */
final class Id3 {
    private Id3() {}

    /**
     * Skips the tag if the stream starts with one; leaves the stream where it was otherwise.
     *
     * @param in a stream that supports mark and reset
     * @return bytes skipped
     */
    static long skipTag(InputStream in) throws IOException {
        in.mark(10);
        byte[] h = in.readNBytes(10);
        if (h.length < 10 || h[0] != 'I' || h[1] != 'D' || h[2] != '3' || ((h[6] | h[7] | h[8] | h[9]) & 0x80) != 0) {
            in.reset();
            return 0;
        }
        long size = ((h[6] & 0x7f) << 21) | ((h[7] & 0x7f) << 14) | ((h[8] & 0x7f) << 7) | (h[9] & 0x7f);
        if ((h[5] & 0x10) != 0) {
            size += 10; // footer
        }
        in.skipNBytes(size);
        return 10 + size;
    }
}
