// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Walks the chain of a JPEG's marker segments from its start to the image data (SOS) or its end (EOI),
 * reading only the segment headers. A file whose chain breaks before that is not a well-formed JPEG:
 * metadata readers that search on through it take random bytes for segments (and would record an image
 * size read from noise), and decoders fail on it anyway.
 */
public final class JpegStructure {
    /** More segments than any real JPEG has before its image data. */
    static final int MAX_SEGMENTS = 4096;

    private JpegStructure() {}

    /**
     * Checks the segment chain.
     *
     * @param file a file that starts with the JPEG start-of-image marker
     * @return where and how the chain breaks; empty if it reaches the image data or the end-of-image marker
     * @throws IOException if the file cannot be read
     */
    public static Optional<String> problem(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer b = ByteBuffer.allocate(4);
            long pos = 2;
            for (int segments = 0; segments < MAX_SEGMENTS; segments++) {
                if (read(ch, b, pos, 1) < 1) {
                    return Optional.of("it ends at byte " + pos + " before its image data");
                }
                if ((b.get(0) & 0xff) != 0xff) {
                    return Optional.of("no segment marker at byte " + pos);
                }
                long marker = pos;
                int type;
                do {
                    if (read(ch, b, ++pos, 1) < 1) {
                        return Optional.of("it ends at byte " + pos + " inside a segment marker");
                    }
                    type = b.get(0) & 0xff;
                } while (type == 0xff);
                pos++;
                if (type == 0xda || type == 0xd9) {
                    return Optional.empty(); // image data (SOS) or end of image (EOI)
                }
                if (type == 0x00) {
                    return Optional.of("no segment marker at byte " + marker);
                }
                if (type == 0x01 || (type >= 0xd0 && type <= 0xd7)) {
                    continue; // markers without a length
                }
                if (read(ch, b, pos, 2) < 2) {
                    return Optional.of("it ends at byte " + pos + " inside the segment at byte " + marker);
                }
                int length = ((b.get(0) & 0xff) << 8) | (b.get(1) & 0xff);
                if (length < 2) {
                    return Optional.of("the segment at byte " + marker + " has an impossible length " + length);
                }
                pos += length;
                if (pos > size) {
                    return Optional.of("the segment at byte " + marker + " runs past the end of the file");
                }
            }
            return Optional.of("more than " + MAX_SEGMENTS + " segments before its image data");
        }
    }

    private static int read(FileChannel ch, ByteBuffer b, long pos, int n) throws IOException {
        b.clear().limit(n);
        int total = 0;
        while (b.hasRemaining()) {
            int r = ch.read(b, pos + total);
            if (r < 0) {
                break;
            }
            total += r;
        }
        return total;
    }
}
