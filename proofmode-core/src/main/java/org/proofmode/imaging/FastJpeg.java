// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Decodes the common kind of JPEG, a camera's or phone's photo, with libjpeg-turbo's SIMD code through its
 * TurboJPEG binding ({@link TurboJpeg}, from the operating system): an 8-bit Huffman-coded (baseline or progressive) YCbCr image with component
 * IDs 1, 2 and 3, no Adobe colour transform marker and no embedded ICC profile. For such a file the JDK's
 * decoder gives the same pixels (both are libjpeg's integer IDCT with its "fancy" chroma upsampling and
 * the same YCbCr to RGB tables), so the hashes are those of {@link ImageHashes#of(BufferedImage)};
 * tests compare the two on every kind of file this path takes. Any other JPEG, a file TurboJPEG refuses or
 * warns about, and every JPEG where TurboJPEG is not installed go to the JDK's decoder.
 */
final class FastJpeg {
    private FastJpeg() {}

    /** What the header says about the frame. */
    record Frame(int width, int height) {}

    /**
     * The frame of a JPEG this decoder takes.
     *
     * @return empty for a JPEG of another kind, or a file whose header does not read
     */
    static Optional<Frame> suitable(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            if (read(ch, b, 0, 2) < 2 || (b.get(0) & 0xff) != 0xff || (b.get(1) & 0xff) != 0xd8) {
                return Optional.empty();
            }
            long pos = 2;
            Frame frame = null;
            for (int segments = 0; segments < 4096; segments++) {
                if (read(ch, b, pos, 4) < 4 || (b.get(0) & 0xff) != 0xff) {
                    return Optional.empty();
                }
                int type = b.get(1) & 0xff;
                int length = ((b.get(2) & 0xff) << 8) | (b.get(3) & 0xff);
                if (type == 0xda) {
                    return Optional.ofNullable(frame); // the image data: everything before it was read
                }
                if (type == 0xd9 || type == 0xff || type == 0x01 || (type >= 0xd0 && type <= 0xd7) || length < 2) {
                    return Optional.empty();
                }
                if (type == 0xee) {
                    return Optional.empty(); // Adobe marker: its colour transform decides what the channels are
                }
                if (type == 0xe2 && startsWith(ch, pos + 4, "ICC_PROFILE")) {
                    return Optional.empty(); // the JDK's decoder applies the profile
                }
                if (type >= 0xc0 && type <= 0xcf && type != 0xc4 && type != 0xc8 && type != 0xcc) {
                    if (type != 0xc0 && type != 0xc1 && type != 0xc2 || frame != null) {
                        return Optional.empty(); // lossless, hierarchical or arithmetic coding, or two frames
                    }
                    ByteBuffer sof = ByteBuffer.allocate(15);
                    if (length != 17 || read(ch, sof, pos + 4, 15) < 15) {
                        return Optional.empty(); // not three components
                    }
                    int precision = sof.get(0) & 0xff;
                    int height = sof.getShort(1) & 0xffff;
                    int width = sof.getShort(3) & 0xffff;
                    int components = sof.get(5) & 0xff;
                    if (precision != 8 || components != 3 || width == 0 || height == 0
                            || sof.get(6) != 1 || sof.get(9) != 2 || sof.get(12) != 3) {
                        return Optional.empty();
                    }
                    frame = new Frame(width, height);
                }
                pos += 2 + length;
            }
            return Optional.empty();
        }
    }

    /** Largest file read whole for the fast decoder; larger ones are streamed by the JDK's. */
    static final long MAX_FILE_BYTES = 64L << 20;

    /**
     * Decodes a file {@link #suitable} accepted and hashes its pixels.
     *
     * @return the hashes; empty if TurboJPEG is not available here, the file is larger than
     *     {@link #MAX_FILE_BYTES}, or TurboJPEG does not decode it to the frame's size without a warning
     */
    static Optional<ImageHashes.Result> hash(Path file, Frame frame) throws IOException {
        Optional<TurboJpeg> tj = TurboJpeg.get();
        if (tj.isEmpty() || Files.size(file) > MAX_FILE_BYTES) {
            return Optional.empty();
        }
        int w = frame.width();
        int h = frame.height();
        Optional<byte[]> pixels = tj.get().rgbPixels(Files.readAllBytes(file), w, h);
        if (pixels.isEmpty()) {
            return Optional.empty();
        }
        byte[] rgb = pixels.get();
        ImageHashes.Accumulator acc = new ImageHashes.Accumulator(w, h);
        byte[] rgba = new byte[w * 4];
        for (int y = 0, i = 0; y < h; y++) {
            for (int x = 0, o = 0; x < w; x++, i += 3, o += 4) {
                rgba[o] = rgb[i];
                rgba[o + 1] = rgb[i + 1];
                rgba[o + 2] = rgb[i + 2];
                rgba[o + 3] = (byte) 0xFF;
            }
            acc.row(y, rgba);
        }
        return Optional.of(acc.result());
    }

    private static boolean startsWith(FileChannel ch, long pos, String tag) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(tag.length());
        return read(ch, b, pos, tag.length()) == tag.length()
                && new String(b.array(), StandardCharsets.US_ASCII).equals(tag);
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
        b.flip();
        return total;
    }
}
