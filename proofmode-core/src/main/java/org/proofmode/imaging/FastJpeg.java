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
import java.security.MessageDigest;
import java.util.Optional;
import org.proofmode.media.Digests;
import org.proofmode.media.JpegSegments;
import org.proofmode.util.Hex;

/**
 * Decodes the common kind of JPEG, a camera's or phone's photo, with libjpeg-turbo's SIMD code through its
 * TurboJPEG binding ({@link TurboJpeg}, from the operating system): an 8-bit Huffman-coded (baseline or
 * progressive) YCbCr image with component IDs 1, 2 and 3 and no Adobe colour transform marker.
 *
 * <p>The pixel hash of such a file is taken over its decoded Y, Cb and Cr planes ({@link ImageHashes#V2}):
 * no upsampling or colour conversion, and half the bytes of R, G, B, A for the usual 4:2:0 photo. For
 * proofs that hold the version 1 hash (R, G, B, A rows), {@link #rgbaPixelHash} decodes to R, G, B, which
 * gives exactly the JDK decoder's pixels (both are libjpeg's integer IDCT with its "fancy" chroma
 * upsampling and the same YCbCr to RGB tables) where the file has no ICC profile; tests compare the two
 * on every kind of file this path takes. Any other JPEG, a file TurboJPEG refuses or warns about, and
 * every JPEG where TurboJPEG is not installed go to the JDK's decoder.
 */
final class FastJpeg {
    private FastJpeg() {}

    /**
     * What the header says about the frame.
     *
     * @param icc whether the file embeds an ICC profile (which the JDK's decoder applies to R, G, B)
     */
    record Frame(int width, int height, boolean icc) {}

    /**
     * The frame of a JPEG this decoder takes.
     *
     * @return empty for a JPEG of another kind, or a file whose header does not read
     */
    static Optional<Frame> suitable(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            JpegSegments.Source src = JpegSegments.Source.of(ch);
            Header header = new Header(src);
            JpegSegments.Walk w = JpegSegments.walk(src, 4096, m -> true, header::read);
            // The image data: everything before it was read, without fill bytes, and its length is there.
            if (w.end() != JpegSegments.End.IMAGE_DATA || w.segmentAt() != w.at() || w.at() + 4 > src.size()
                    || header.frame == null) {
                return Optional.empty();
            }
            return Optional.of(new Frame(header.frame.width(), header.frame.height(), header.icc));
        }
    }

    /** What the segments before the image data say; a segment of a kind this decoder does not take stops the walk. */
    private static final class Header {
        private final JpegSegments.Source src;
        private Frame frame;
        private boolean icc;

        Header(JpegSegments.Source src) {
            this.src = src;
        }

        boolean read(JpegSegments.Segment s) throws IOException {
            int type = s.marker();
            if (s.fillFrom() != s.offset() || s.length() == 0) {
                return false; // fill bytes, or a marker without a length
            }
            if (type == 0xee) {
                return false; // Adobe marker: its colour transform decides what the channels are
            }
            if (type == 0xe2 && startsWith(src, s.payload(), "ICC_PROFILE")) {
                icc = true;
            }
            if (type >= 0xc0 && type <= 0xcf && type != 0xc4 && type != 0xc8 && type != 0xcc) {
                if (type != 0xc0 && type != 0xc1 && type != 0xc2 || frame != null) {
                    return false; // lossless, hierarchical or arithmetic coding, or two frames
                }
                if (s.length() != 17) {
                    return false; // not three components
                }
                ByteBuffer sof = ByteBuffer.allocate(15);
                src.read(s.payload(), sof.array(), 0, 15);
                int precision = sof.get(0) & 0xff;
                int height = sof.getShort(1) & 0xffff;
                int width = sof.getShort(3) & 0xffff;
                int components = sof.get(5) & 0xff;
                if (precision != 8 || components != 3 || width == 0 || height == 0
                        || sof.get(6) != 1 || sof.get(9) != 2 || sof.get(12) != 3) {
                    return false;
                }
                frame = new Frame(width, height, false);
            }
            return true;
        }
    }

    /** Largest file read whole for the fast decoder; larger ones are streamed by the JDK's. */
    static final long MAX_FILE_BYTES = 64L << 20;

    /**
     * Decodes a file {@link #suitable} accepted to its Y, Cb and Cr planes and hashes them: the current pixel
     * hash ({@link ImageHashes#V2}) and the perceptual hash from the Y plane.
     *
     * @return the hashes; empty if TurboJPEG is not available here, the file is larger than
     *     {@link #MAX_FILE_BYTES}, or TurboJPEG does not decode it to the frame's size without a warning
     */
    static Optional<ImageHashes.Result> hash(Path file, Frame frame) throws IOException {
        int w = frame.width();
        int h = frame.height();
        return withDecoder(file, (turbo, decoder, size) -> {
            Optional<TurboJpeg.Planes> decoded = turbo.yuvPlanes(decoder, file, size, w, h);
            if (decoded.isEmpty()) {
                return Optional.empty();
            }
            TurboJpeg.Planes planes = decoded.get();
            byte[] data = planes.data();
            MessageDigest sha = Digests.newSha256();
            ImageHashes.Luma luma = new ImageHashes.Luma(w, h);
            // The Y plane a few rows at a time, hashed and then summed for the perceptual hash while those rows
            // are still in the processor's cache; then Cb and Cr.
            int yStride = planes.strides()[0];
            for (int y = 0; y < h; y += ROWS) {
                int rows = Math.min(ROWS, h - y);
                update(sha, data, y * yStride, w, yStride, rows);
                for (int r = y; r < y + rows; r++) {
                    luma.lumaRow(r, data, r * yStride);
                }
            }
            for (int i = 1; i < planes.offsets().length; i++) {
                update(sha, data, planes.offsets()[i], planes.widths()[i], planes.strides()[i], planes.heights()[i]);
            }
            return Optional.of(new ImageHashes.Result(w, h, ImageHashes.V2 + Hex.encode(sha.digest()), luma.perceptualHash()));
        });
    }

    /** Rows of the Y plane hashed and summed together. */
    private static final int ROWS = 16;

    /** Hashes {@code rows} rows of {@code width} bytes, {@code stride} apart from {@code offset}. */
    private static void update(MessageDigest sha, byte[] data, int offset, int width, int stride, int rows) {
        if (stride == width) {
            sha.update(data, offset, width * rows);
        } else {
            for (int y = 0; y < rows; y++) {
                sha.update(data, offset + y * stride, width);
            }
        }
    }

    /**
     * Decodes a file {@link #suitable} accepted to R, G, B pixels and gives its version 1 pixel hash
     * ({@link ImageHashes#of(BufferedImage)}: the JDK decoder's pixels, in less than half its time), to
     * compare with proofs that hold that version.
     *
     * @return the hash; empty as for {@link #hash}, and for a file with an ICC profile
     */
    static Optional<String> rgbaPixelHash(Path file, Frame frame) throws IOException {
        if (frame.icc()) {
            return Optional.empty();
        }
        int w = frame.width();
        int h = frame.height();
        return withDecoder(file, (turbo, decoder, size) -> turbo.rgbPixels(decoder, file, size, w, h).map(rgb -> {
            ImageHashes.RgbaDigest digest = new ImageHashes.RgbaDigest(w, h);
            byte[] rgba = new byte[w * 4];
            for (int y = 0, i = 0; y < h; y++) {
                for (int x = 0, o = 0; x < w; x++, i += 3, o += 4) {
                    rgba[o] = rgb[i];
                    rgba[o + 1] = rgb[i + 1];
                    rgba[o + 2] = rgb[i + 2];
                    rgba[o + 3] = (byte) 0xFF;
                }
                digest.row(rgba);
            }
            return digest.hex();
        }));
    }

    /** What is done with a decoder taken for a file of {@code size} bytes. */
    @FunctionalInterface
    private interface DecoderUse<T> {
        Optional<T> apply(TurboJpeg turbo, TurboJpeg.Decoder decoder, long size) throws IOException;
    }

    /**
     * Applies {@code use} with a decoder taken for the file and given back after it, where TurboJPEG is here
     * and the file is not larger than {@link #MAX_FILE_BYTES}; empty otherwise.
     */
    private static <T> Optional<T> withDecoder(Path file, DecoderUse<T> use) throws IOException {
        Optional<TurboJpeg> turbo = TurboJpeg.get();
        long size = Files.size(file);
        if (turbo.isEmpty() || size > MAX_FILE_BYTES) {
            return Optional.empty();
        }
        TurboJpeg.Decoder decoder = turbo.get().take();
        try {
            return use.apply(turbo.get(), decoder, size);
        } finally {
            turbo.get().give(decoder);
        }
    }

    private static boolean startsWith(JpegSegments.Source src, long pos, String tag) throws IOException {
        if (pos + tag.length() > src.size()) {
            return false;
        }
        byte[] b = new byte[tag.length()];
        src.read(pos, b, 0, b.length);
        return new String(b, StandardCharsets.US_ASCII).equals(tag);
    }
}
