// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.color.ColorSpace;
import java.awt.color.ICC_Profile;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;
import org.proofmode.util.Hex;

/**
 * The TurboJPEG path for camera JPEGs: version 2 pixel hashes against planes known in advance, version 1
 * against the JDK's decoder, which stays its reference.
 */
class FastJpegTest {
    private static final Path PHONE_PHOTO = TestHomes.samples().resolve("proofmode/proofmode-android-sample-proof-1/IMG_20161214_163821.jpg");

    @TempDir
    Path dir;

    @Test
    void hash_equalsImageIo_forPhonePhoto() throws Exception {
        assertSameAsImageIo(PHONE_PHOTO);
        ImageHashes.Result v2 = ImageHashes.of(PHONE_PHOTO);
        ImageHashes.Result v1 = ImageHashes.ofDecodedByImageIo(PHONE_PHOTO);
        assertThat(v2.pixelHash()).startsWith(ImageHashes.V2).hasSize(3 + 64);
        assertThat(ImageHashes.distance(v2.perceptualHash(), v1.perceptualHash())).as("luma from Y against luma from R, G, B")
                .isLessThanOrEqualTo(2);
        assertThat(ImageHashes.pixelHashAs(PHONE_PHOTO, v1.pixelHash())).contains(v1.pixelHash());
        assertThat(ImageHashes.pixelHashAs(PHONE_PHOTO, v2.pixelHash())).contains(v2.pixelHash());
    }

    /**
     * A JPEG whose planes are known without decoding it: every 16 by 16 block one colour, encoded at quality
     * 1.0 (all quantizers 1), so each block's DCT has its DC term alone and the integer IDCT gives the colour
     * back exactly. The JDK's encoder converts R, G, B with libjpeg's fixed-point tables and averages chroma
     * over 2 by 2 pixels (4:2:0), which within one block changes nothing.
     */
    @Test
    void v2_isSha256OfTheYCbCrPlanes_inOrder_atTheirSubsampledSizes() throws Exception {
        int[][] sizes = {{16, 16}, {48, 32}, {40, 24}, {33, 17}};
        for (int[] size : sizes) {
            int w = size[0];
            int h = size[1];
            BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
            int cw = (w + 1) / 2;
            int ch = (h + 1) / 2;
            byte[] planes = new byte[w * h + 2 * cw * ch];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int block = (y / 16) * 7 + x / 16;
                    int r = (block * 53 + 40) % 256;
                    int g = (block * 97 + 10) % 256;
                    int b = (block * 31 + 200) % 256;
                    img.setRGB(x, y, (r << 16) | (g << 8) | b);
                    planes[y * w + x] = (byte) ((19595 * r + 38470 * g + 7471 * b + 32768) >> 16);
                    if (x % 2 == 0 && y % 2 == 0) {
                        int c = (y / 2) * cw + x / 2;
                        planes[w * h + c] = (byte) ((-11059 * r - 21709 * g + 32768 * b + (128 << 16) + 32767) >> 16);
                        planes[w * h + cw * ch + c] = (byte) ((32768 * r - 27439 * g - 5329 * b + (128 << 16) + 32767) >> 16);
                    }
                }
            }
            Path f = Files.write(dir.resolve(w + "x" + h + ".jpg"), jpeg(img, 1.0f, false));

            assertThat(ImageHashes.of(f).pixelHash()).as("%dx%d", w, h)
                    .isEqualTo(ImageHashes.V2 + Hex.encode(MessageDigest.getInstance("SHA-256").digest(planes)));
        }
    }

    @Test
    void v2_isTaken_forJpegWithIccProfile_andVersion1_comesFromTheJdksDecoder() throws Exception {
        byte[] plain = jpeg(TestImages.detailed(64, 48, 4), 0.9f, false);
        Path withIcc = Files.write(dir.resolve("icc.jpg"), afterSoi(plain, iccSegment()));
        Path without = Files.write(dir.resolve("plain.jpg"), plain);

        assertThat(FastJpeg.suitable(withIcc)).hasValueSatisfying(f -> assertThat(f.icc()).isTrue());
        assertThat(ImageHashes.of(withIcc).pixelHash()).as("the planes do not depend on the profile")
                .isEqualTo(ImageHashes.of(without).pixelHash()).startsWith(ImageHashes.V2);
        assertThat(FastJpeg.rgbaPixelHash(withIcc, FastJpeg.suitable(withIcc).get())).isEmpty();
        assertThat(ImageHashes.pixelHashAs(withIcc, "")).contains(ImageHashes.ofDecodedByImageIo(withIcc).pixelHash());
    }

    @Test
    void hash_equalsImageIo_forBaselineAndProgressiveJpegsOfOddSizes() throws Exception {
        int[][] sizes = {{1, 1}, {7, 5}, {17, 33}, {64, 48}, {333, 221}, {1023, 769}};
        long seed = 1;
        for (int[] s : sizes) {
            for (boolean progressive : new boolean[] {false, true}) {
                for (float quality : new float[] {0.5f, 0.9f, 1.0f}) {
                    BufferedImage img = TestImages.detailed(s[0], s[1], seed++);
                    Path f = Files.write(dir.resolve(s[0] + "x" + s[1] + "-" + progressive + "-" + quality + ".jpg"),
                            jpeg(img, quality, progressive));
                    assertSameAsImageIo(f);
                }
            }
        }
    }

    @Test
    void of_answersAsImageIo_truncatedJpeg() throws Exception {
        byte[] whole = jpeg(TestImages.detailed(300, 200, 9), 0.9f, false);
        Path cut = Files.write(dir.resolve("cut.jpg"), java.util.Arrays.copyOf(whole, whole.length / 2));
        assertThat(FastJpeg.suitable(cut)).isPresent();
        assertThat(FastJpeg.hash(cut, FastJpeg.suitable(cut).get())).as("TurboJPEG warns: left to the JDK's decoder").isEmpty();
        assertThat(FastJpeg.rgbaPixelHash(cut, FastJpeg.suitable(cut).get())).isEmpty();
        Object viaImageIo;
        try {
            viaImageIo = ImageHashes.ofDecodedByImageIo(cut);
        } catch (IOException e) {
            viaImageIo = e.getClass();
        }
        Object viaOf;
        try {
            viaOf = ImageHashes.of(cut);
        } catch (IOException e) {
            viaOf = e.getClass();
        }
        assertThat(viaOf).isEqualTo(viaImageIo);
    }

    /**
     * A decoder and its buffers are kept between decodes, at most one per processor: ten times as many threads
     * as processors hashing at once give the hashes one thread gives, keep no more decoders than processors,
     * and ten times as many hashes one after another reuse a single decoder.
     */
    @Test
    void decoders_keptAtMostOnePerProcessor_andReused_withTenTimesAsManyThreads() throws Exception {
        TurboJpeg turbo = TurboJpeg.get().orElseThrow(() -> new AssertionError(TurboJpeg.unavailable()));
        int cores = Runtime.getRuntime().availableProcessors();
        List<Path> photos = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            photos.add(Files.write(dir.resolve("p" + i + ".jpg"), jpeg(TestImages.detailed(320 + 16 * i, 240 - 8 * i, i), 0.9f, i % 2 == 1)));
        }
        Map<Path, String> alone = new HashMap<>();
        turbo.release();
        for (int n = 0; n < 10 * cores; n++) {
            Path f = photos.get(n % photos.size());
            String hash = FastJpeg.hash(f, FastJpeg.suitable(f).orElseThrow()).orElseThrow().pixelHash();
            assertThat(alone.computeIfAbsent(f, k -> hash)).isEqualTo(hash);
            assertThat(turbo.kept()).as("one after another: one decoder").isEqualTo(1);
        }
        ExecutorService pool = Executors.newFixedThreadPool(10 * cores);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Map.Entry<Path, String>>> results = new ArrayList<>();
            for (int n = 0; n < 10 * cores * 4; n++) {
                Path f = photos.get(n % photos.size());
                results.add(pool.submit(() -> {
                    start.await();
                    return Map.entry(f, FastJpeg.hash(f, FastJpeg.suitable(f).orElseThrow()).orElseThrow().pixelHash());
                }));
            }
            start.countDown();
            for (Future<Map.Entry<Path, String>> r : results) {
                Map.Entry<Path, String> e = r.get(60, TimeUnit.SECONDS);
                assertThat(e.getValue()).as("%s hashed at once with others", e.getKey()).isEqualTo(alone.get(e.getKey()));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(turbo.kept()).isBetween(1, cores);
        turbo.release();
        assertThat(turbo.kept()).isZero();
    }

    /** A kept decoder is closed when unused for {@link TurboJpeg#KEEP}, without a call; a failed one and one with very large buffers are never kept. */
    @Test
    void decoders_closedWhenUnused_andNotKept_afterAFailure_orWithBuffersAboveTheLimit() throws Exception {
        TurboJpeg turbo = TurboJpeg.get().orElseThrow(() -> new AssertionError(TurboJpeg.unavailable()));
        turbo.release();
        Path f = Files.write(dir.resolve("one.jpg"), jpeg(TestImages.detailed(200, 100, 5), 0.9f, false));
        FastJpeg.hash(f, FastJpeg.suitable(f).orElseThrow()).orElseThrow();
        assertThat(turbo.kept()).isEqualTo(1);
        long deadline = System.nanoTime() + TurboJpeg.KEEP.toNanos() + TimeUnit.SECONDS.toNanos(10);
        while (turbo.kept() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(turbo.kept()).as("closed %s after its last use", TurboJpeg.KEEP).isZero();

        byte[] whole = jpeg(TestImages.detailed(300, 200, 9), 0.9f, false);
        Path cut = Files.write(dir.resolve("cut.jpg"), java.util.Arrays.copyOf(whole, whole.length / 2));
        assertThat(FastJpeg.hash(cut, FastJpeg.suitable(cut).orElseThrow())).isEmpty();
        assertThat(turbo.kept()).as("a decoder that failed is closed").isZero();

        // 5,400 by 5,400 pixels: 43.7 MB of planes, above what a kept decoder may hold.
        BufferedImage large = new BufferedImage(5400, 5400, BufferedImage.TYPE_INT_RGB);
        Path big = Files.write(dir.resolve("big.jpg"), jpeg(large, 0.5f, false));
        assertThat(5400L * 5400 * 3 / 2).isGreaterThan(TurboJpeg.KEEP_BYTES);
        assertThat(FastJpeg.hash(big, FastJpeg.suitable(big).orElseThrow())).isPresent();
        assertThat(turbo.kept()).as("a decoder holding more than %d bytes is closed", TurboJpeg.KEEP_BYTES).isZero();
    }

    @Test
    void suitable_empty_forJpegsLeftToImageIo() throws Exception {
        BufferedImage color = TestImages.detailed(40, 30, 3);
        byte[] plain = jpeg(color, 0.9f, false);
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("plain.jpg"), plain))).isPresent();

        BufferedImage gray = new BufferedImage(40, 30, BufferedImage.TYPE_BYTE_GRAY);
        gray.createGraphics().drawImage(color, 0, 0, null);
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("gray.jpg"), jpeg(gray, 0.9f, false)))).isEmpty();

        byte[] adobe = {(byte) 0xFF, (byte) 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 1};
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("adobe.jpg"), afterSoi(plain, adobe)))).isEmpty();

        assertThat(FastJpeg.suitable(TestHomes.jpegLike(dir.resolve("noise.jpg"), 7, 500))).isEmpty();
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("png.png"), TestImages.encode(color, "png")))).isEmpty();
    }

    private static void assertSameAsImageIo(Path f) throws Exception {
        Optional<FastJpeg.Frame> frame = FastJpeg.suitable(f);
        assertThat(frame).as("%s is a JPEG the fast path takes", f.getFileName()).isPresent();
        Optional<String> fast = FastJpeg.rgbaPixelHash(f, frame.get());
        assertThat(fast).as("TurboJPEG decoded %s (%s)", f.getFileName(), TurboJpeg.unavailable()).isPresent();
        ImageHashes.Result reference = ImageHashes.ofDecodedByImageIo(f);
        assertThat(fast.get()).as(f.getFileName().toString()).isEqualTo(reference.pixelHash());
        assertThat(ImageHashes.pixelHashAs(f, reference.pixelHash())).contains(reference.pixelHash());
        Optional<ImageHashes.Result> v2 = FastJpeg.hash(f, frame.get());
        assertThat(v2).isPresent();
        assertThat(v2.get().pixelHash()).startsWith(ImageHashes.V2);
        assertThat(v2.get().width()).isEqualTo(reference.width());
        assertThat(v2.get().height()).isEqualTo(reference.height());
    }

    private static byte[] iccSegment() {
        byte[] icc = ICC_Profile.getInstance(ColorSpace.CS_sRGB).getData();
        return ByteBuffer.allocate(4 + 14 + icc.length).put((byte) 0xFF).put((byte) 0xE2)
                .putShort((short) (2 + 14 + icc.length)).put("ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII))
                .put((byte) 1).put((byte) 1).put(icc).array();
    }

    private static byte[] afterSoi(byte[] jpeg, byte[] segment) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        out.write(segment, 0, segment.length);
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }

    static byte[] jpeg(BufferedImage img, float quality, boolean progressive) throws IOException {
        ImageWriter w = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = w.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(quality);
        if (progressive) {
            p.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            w.setOutput(ios);
            w.write(null, new IIOImage(img, null, null), p);
        } finally {
            w.dispose();
        }
        return out.toByteArray();
    }
}
