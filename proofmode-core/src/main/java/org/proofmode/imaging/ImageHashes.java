// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.IndexColorModel;
import java.awt.image.Raster;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.FileImageInputStream;
import javax.imageio.stream.ImageInputStream;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;

/**
 * Hashes of what an image shows rather than of its bytes: the pixel hash and the perceptual hash. Both
 * are computed from one decode (the first frame of a GIF or TIFF). A camera's kind of JPEG is decoded by
 * libjpeg-turbo's SIMD code where the system has its TurboJPEG binding ({@link FastJpeg}); other images,
 * and JPEGs where TurboJPEG is missing, by the JDK's decoders (ImageIO).
 *
 * <p><b>Pixel hash, version 2</b> ({@value #V2} followed by 64 hex digits), for the JPEGs {@link FastJpeg}
 * takes: SHA-256 over the decoded Y, Cb and Cr planes as the JPEG holds them, one after the other, each
 * at its own resolution (for the usual 4:2:0 photo, chroma planes of half the width and height, rounded
 * up), rows without padding: exactly what libjpeg-turbo's {@code tjDecompressToYUV2} gives with a
 * padding of 1 and default flags (accurate integer IDCT). No upsampling and no colour conversion are
 * involved, so it is cheaper than version 1 (half the bytes for a 4:2:0 photo) and does not depend on
 * an ICC profile. A JPEG pixel hash is a property of this decoder: other decoders may round the IDCT
 * differently.
 *
 * <p><b>Pixel hash, version 1</b> (64 hex digits, no prefix), for every other image, and for every JPEG
 * where TurboJPEG is missing: SHA-256 over a canonical encoding of the decoded image: width and height as
 * 32-bit big-endian integers, then every pixel row by row, left to right, as four bytes R, G, B, A
 * (non-premultiplied sRGB, as {@link BufferedImage#getRGB(int, int)} gives them; A is 255 for opaque
 * images). For lossless formats (PNG, GIF, BMP) any decoder gives the same pixels. Proofs made before
 * version 2 hold it for JPEGs too; {@link #pixelHashAs} computes it again to compare with them.
 *
 * <p>In both versions the EXIF orientation is not applied: rotating a photo by editing its tag keeps the
 * hash. A metadata-only edit keeps it too, since the image data is untouched.
 *
 * <p><b>Perceptual hash</b> (64 bits, 16 hex digits): the image is reduced to luma
 * ({@code (299 R + 587 G + 114 B) / 1000}; for a JPEG decoded to planes, its Y plane, which is the same
 * weighting made by the encoder, so the two differ only by rounding), scaled to 32 by 32 by averaging the
 * pixels that fall into each cell, transformed with a two-dimensional DCT-II; the 8 by 8 lowest
 * frequencies (top left, including the DC term) are compared with their median, and each gives one bit,
 * 1 where it is greater, row by row, most significant bit first. Copies that were re-encoded, scaled or
 * lightly edited stay within a small Hamming distance; unrelated images are near 32 apart. It is the
 * construction of the well-known DCT "pHash" with box scaling, so values are close to, not equal to,
 * other libraries'. It is compared by distance only, so it carries no version.
 *
 * <p>Security: images above {@link #MAX_PIXELS} pixels are refused before decoding, and concurrent
 * decodes share a budget of that many pixels, so memory stays bounded whatever the input and the
 * number of threads.
 */
public final class ImageHashes {
    /** The largest image decoded: 100 megapixels (400 MB as 32-bit pixels). */
    public static final long MAX_PIXELS = 100_000_000L;

    private static final int MP = 1_000_000;
    private static final Semaphore BUDGET = new Semaphore((int) (MAX_PIXELS / MP));
    private static final int SIZE = 32;
    private static final int LOW = 8;
    private static final double[][] COS = cosTable();

    /** The prefix of version 2 pixel hashes (decoded JPEG planes); version 1 values have none. */
    public static final String V2 = "v2:";

    /**
     * The hashes of one image.
     *
     * @param width width in pixels
     * @param height height in pixels
     * @param pixelHash the pixel hash: {@value #V2} and 64 lower-case hex digits (version 2), or 64 hex digits (version 1)
     * @param perceptualHash the 64-bit perceptual hash
     */
    public record Result(int width, int height, String pixelHash, long perceptualHash) {
        /** Validates the fields. */
        public Result {
            Objects.requireNonNull(pixelHash, "pixelHash");
        }

        /** The perceptual hash as 16 lower-case hex digits. */
        public String perceptualHex() {
            return String.format("%016x", perceptualHash);
        }
    }

    /** Why an image was not hashed. */
    public static final class NotHashed extends Exception {
        private static final long serialVersionUID = 1L;

        NotHashed(String message) {
            super(message);
        }
    }

    private ImageHashes() {}

    /**
     * Decodes an image file and hashes it: the pixel hash in version 2 for a JPEG that TurboJPEG decodes
     * here, in version 1 for any other image.
     *
     * @return the hashes
     * @throws NotHashed if no decoder reads the file, or it is larger than {@link #MAX_PIXELS}
     * @throws IOException if the file cannot be read or is damaged
     */
    public static Result of(Path file) throws IOException, NotHashed {
        Optional<FastJpeg.Frame> frame = FastJpeg.suitable(file);
        if (frame.isPresent()) {
            Optional<Result> fast = withinBudget(frame.get(), () -> FastJpeg.hash(file, frame.get()));
            if (fast.isPresent()) {
                return fast.get();
            }
        }
        return ofDecodedByImageIo(file);
    }

    /**
     * The pixel hash of an image file in the version of another value, to compare the two: version 2 where
     * the file is a JPEG that TurboJPEG decodes here, version 1 for any image.
     *
     * @param like a pixel hash of either version
     * @return the file's pixel hash in that version; empty if it cannot be made here (version 2 of an image
     *     that is not such a JPEG, or where TurboJPEG is missing)
     * @throws NotHashed as {@link #of(Path)}
     * @throws IOException as {@link #of(Path)}
     */
    public static Optional<String> pixelHashAs(Path file, String like) throws IOException, NotHashed {
        Optional<FastJpeg.Frame> frame = FastJpeg.suitable(file);
        if (like.startsWith(V2)) {
            return frame.isEmpty() ? Optional.empty()
                    : withinBudget(frame.get(), () -> FastJpeg.hash(file, frame.get())).map(Result::pixelHash);
        }
        if (frame.isPresent()) {
            Optional<String> fast = withinBudget(frame.get(), () -> FastJpeg.rgbaPixelHash(file, frame.get()));
            if (fast.isPresent()) {
                return fast;
            }
        }
        return Optional.of(ofDecodedByImageIo(file).pixelHash());
    }

    /**
     * Frees the decoders kept between JPEG decodes (a batch's buffers, about 15 MB each for an 8 MP photo)
     * now, instead of two seconds after their last use: for a resident process about to give memory back.
     */
    public static void releaseBuffers() {
        TurboJpeg.ifLoaded().ifPresent(TurboJpeg::release);
    }

    /** A decode, by {@link FastJpeg} or the JDK's decoders. */
    private interface Decode<T> {
        T run() throws IOException;
    }

    /** Runs a decode of a frame within the budget of pixels, after checking its size. */
    private static <T> T withinBudget(FastJpeg.Frame frame, Decode<T> decode) throws IOException, NotHashed {
        return withinBudget(frame.width(), frame.height(), decode);
    }

    /**
     * Runs a decode of an image of {@code w} by {@code h} pixels within the budget of pixels: refused above
     * {@link #MAX_PIXELS}, and waiting while other decodes hold the budget.
     */
    private static <T> T withinBudget(int w, int h, Decode<T> decode) throws IOException, NotHashed {
        long pixels = (long) w * h;
        if (pixels > MAX_PIXELS) {
            throw new NotHashed(w + "x" + h + " is more than " + MAX_PIXELS + " pixels; not decoded");
        }
        int permits = permits(pixels);
        BUDGET.acquireUninterruptibly(permits);
        try {
            return decode.run();
        } catch (OutOfMemoryError e) {
            throw new NotHashed("not enough memory to decode " + w + "x" + h + " pixels");
        } finally {
            BUDGET.release(permits);
        }
    }

    /** Decodes with the JDK's decoders (ImageIO) and hashes: every format, and the reference for {@link FastJpeg}. */
    static Result ofDecodedByImageIo(Path file) throws IOException, NotHashed {
        try (ImageInputStream in = new FileImageInputStream(file.toFile())) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                throw new NotHashed("no decoder for this image format");
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                return withinBudget(reader.getWidth(0), reader.getHeight(0), () -> of(reader.read(0)));
            } finally {
                reader.dispose();
            }
        } catch (RuntimeException e) {
            // ImageIO's decoders throw unchecked exceptions on some damaged files.
            throw new IOException("cannot decode: " + e, e);
        }
    }

    private static int permits(long pixels) {
        return (int) Math.max(1, (pixels + MP - 1) / MP);
    }

    /** Hashes a decoded image: version 1 of the pixel hash. */
    public static Result of(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        RgbaDigest digest = new RgbaDigest(w, h);
        Luma luma = new Luma(w, h);
        int[] argb = new int[w];
        int[] samples = null;
        byte[] row = new byte[w * 4];
        boolean direct = isPlainSrgb(image.getColorModel(), image.getRaster());
        Raster raster = image.getRaster();
        int bands = raster.getNumBands();
        for (int y = 0; y < h; y++) {
            if (direct) {
                samples = raster.getPixels(0, y, w, 1, samples);
                for (int x = 0, i = 0; x < w; x++, i += bands) {
                    row[4 * x] = (byte) samples[i];
                    row[4 * x + 1] = (byte) samples[i + 1];
                    row[4 * x + 2] = (byte) samples[i + 2];
                    row[4 * x + 3] = bands == 4 ? (byte) samples[i + 3] : (byte) 0xFF;
                }
            } else {
                image.getRGB(0, y, w, 1, argb, 0, w);
                for (int x = 0; x < w; x++) {
                    int p = argb[x];
                    row[4 * x] = (byte) (p >>> 16);
                    row[4 * x + 1] = (byte) (p >>> 8);
                    row[4 * x + 2] = (byte) p;
                    row[4 * x + 3] = (byte) (p >>> 24);
                }
            }
            digest.row(row);
            luma.rgbaRow(y, row);
        }
        return new Result(w, h, digest.hex(), luma.perceptualHash());
    }

    /** Version 1 of the pixel hash, of rows handed over top to bottom as R, G, B, A bytes. */
    static final class RgbaDigest {
        private final int w;
        private final MessageDigest sha = Digests.newSha256();

        RgbaDigest(int w, int h) {
            this.w = w;
            sha.update(ByteBuffer.allocate(8).putInt(w).putInt(h).array());
        }

        /** The next row: {@code 4 * width} bytes R, G, B, A. */
        void row(byte[] rgba) {
            sha.update(rgba, 0, 4 * w);
        }

        String hex() {
            return Hex.encode(sha.digest());
        }
    }

    /**
     * The perceptual hash of an image handed over row by row, as R, G, B, A bytes or as luma: whichever
     * decoder made the rows, the same pixels give the same hash.
     */
    static final class Luma {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private final int w;
        private final int h;
        /** 1000 times the sum of the luma of each of the 32 by 32 cells. */
        private final long[] sums = new long[SIZE * SIZE];
        private final int[] cellX;
        /** Where each cell's columns start, and (last) the width. */
        private final int[] cellStart = new int[SIZE + 1];

        Luma(int w, int h) {
            this.w = w;
            this.h = h;
            cellX = new int[w];
            Arrays.fill(cellStart, w);
            for (int x = w - 1; x >= 0; x--) {
                cellX[x] = (int) ((long) x * SIZE / w);
                cellStart[cellX[x]] = x;
            }
            for (int c = SIZE - 1; c >= 0; c--) {
                cellStart[c] = Math.min(cellStart[c], cellStart[c + 1]); // an empty cell starts where the next does
            }
        }

        /** Row {@code y}: {@code 4 * width} bytes R, G, B, A. */
        void rgbaRow(int y, byte[] rgba) {
            int cy = (int) ((long) y * SIZE / h) * SIZE;
            for (int x = 0, i = 0; x < w; x++, i += 4) {
                sums[cy + cellX[x]] += 299 * (rgba[i] & 0xFF) + 587 * (rgba[i + 1] & 0xFF) + 114 * (rgba[i + 2] & 0xFF);
            }
        }

        /** Row {@code y}: {@code width} bytes of luma from {@code offset}. */
        void lumaRow(int y, byte[] luma, int offset) {
            int cy = (int) ((long) y * SIZE / h) * SIZE;
            for (int c = 0; c < SIZE; c++) {
                int i = offset + cellStart[c];
                int end = offset + cellStart[c + 1];
                long s = 0;
                // Eight bytes at a time: the even and odd bytes added into four 16-bit lanes, which hold the
                // sums of up to 128 words before they are added up.
                while (end - i >= 8) {
                    long lanes = 0;
                    for (int stop = i + 8 * Math.min(128, (end - i) / 8); i < stop; i += 8) {
                        long x = (long) LONGS.get(luma, i);
                        lanes += (x & 0x00FF00FF00FF00FFL) + ((x >>> 8) & 0x00FF00FF00FF00FFL);
                    }
                    s += (lanes & 0xFFFF) + ((lanes >>> 16) & 0xFFFF) + ((lanes >>> 32) & 0xFFFF) + (lanes >>> 48);
                }
                for (; i < end; i++) {
                    s += luma[i] & 0xFF;
                }
                sums[cy + c] += 1000 * s;
            }
        }

        /** Each cell's sum so far, for tests. */
        long[] sums() {
            return sums.clone();
        }

        long perceptualHash() {
            long[] rowsIn = new long[SIZE];
            long[] colsIn = new long[SIZE];
            for (int y = 0; y < h; y++) {
                rowsIn[(int) ((long) y * SIZE / h)]++;
            }
            for (int x = 0; x < w; x++) {
                colsIn[cellX[x]]++;
            }
            double[][] small = new double[SIZE][SIZE];
            for (int i = 0; i < SIZE * SIZE; i++) {
                long count = rowsIn[i / SIZE] * colsIn[i % SIZE];
                // An image smaller than 32 pixels leaves cells empty: they take their left or upper neighbour.
                small[i / SIZE][i % SIZE] = count > 0 ? sums[i] / 1000.0 / count
                        : i % SIZE > 0 ? small[i / SIZE][i % SIZE - 1] : i >= SIZE ? small[i / SIZE - 1][0] : 0;
            }
            return perceptual(small);
        }
    }

    /** The number of bits in which two perceptual hashes differ. */
    public static int distance(long a, long b) {
        return Long.bitCount(a ^ b);
    }

    static long perceptual(double[][] px) {
        double[] low = new double[LOW * LOW];
        for (int u = 0; u < LOW; u++) {
            for (int v = 0; v < LOW; v++) {
                double s = 0;
                for (int y = 0; y < SIZE; y++) {
                    double cu = COS[u][y];
                    for (int x = 0; x < SIZE; x++) {
                        s += px[y][x] * cu * COS[v][x];
                    }
                }
                low[u * LOW + v] = s;
            }
        }
        double[] sorted = low.clone();
        Arrays.sort(sorted);
        double median = (sorted[31] + sorted[32]) / 2;
        long bits = 0;
        for (double c : low) {
            bits = (bits << 1) | (c > median ? 1 : 0);
        }
        return bits;
    }

    private static double[][] cosTable() {
        double[][] c = new double[LOW][SIZE];
        for (int u = 0; u < LOW; u++) {
            for (int x = 0; x < SIZE; x++) {
                c[u][x] = Math.cos((2 * x + 1) * u * Math.PI / (2 * SIZE));
            }
        }
        return c;
    }

    /** 8-bit, non-premultiplied sRGB with bands in R, G, B[, A] order: samples equal what getRGB gives. */
    private static boolean isPlainSrgb(ColorModel cm, Raster raster) {
        if (!cm.getColorSpace().isCS_sRGB() || cm.isAlphaPremultiplied() || cm instanceof IndexColorModel) {
            return false;
        }
        int n = cm.getNumComponents();
        if ((n != 3 && n != 4) || raster.getNumBands() != n || (n == 4) != cm.hasAlpha()) {
            return false;
        }
        for (int s : cm.getComponentSize()) {
            if (s != 8) {
                return false;
            }
        }
        return true;
    }

    /** Whether this package decodes the given media type. */
    public static boolean decodes(String mimeType) {
        return Optional.ofNullable(mimeType).map(m -> switch (m) {
            case "image/jpeg", "image/png", "image/gif", "image/bmp", "image/tiff" -> true;
            default -> false;
        }).orElse(false);
    }
}
