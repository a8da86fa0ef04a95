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
import java.util.Optional;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;

/** The TurboJPEG path for camera JPEGs against the JDK's decoder, which stays the reference. */
class FastJpegTest {
    private static final Path PHONE_PHOTO = TestHomes.samples().resolve("proofmode/proofmode-android-sample-proof-1/IMG_20161214_163821.jpg");

    @TempDir
    Path dir;

    @Test
    void hash_equalsImageIo_forPhonePhoto() throws Exception {
        assertSameAsImageIo(PHONE_PHOTO);
        assertThat(ImageHashes.of(PHONE_PHOTO)).isEqualTo(ImageHashes.ofDecodedByImageIo(PHONE_PHOTO));
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

    @Test
    void suitable_empty_forJpegsLeftToImageIo() throws Exception {
        BufferedImage color = TestImages.detailed(40, 30, 3);
        byte[] plain = jpeg(color, 0.9f, false);
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("plain.jpg"), plain))).isPresent();

        BufferedImage gray = new BufferedImage(40, 30, BufferedImage.TYPE_BYTE_GRAY);
        gray.createGraphics().drawImage(color, 0, 0, null);
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("gray.jpg"), jpeg(gray, 0.9f, false)))).isEmpty();

        byte[] icc = ICC_Profile.getInstance(ColorSpace.CS_sRGB).getData();
        byte[] iccSegment = ByteBuffer.allocate(4 + 14 + icc.length).put((byte) 0xFF).put((byte) 0xE2)
                .putShort((short) (2 + 14 + icc.length)).put("ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII))
                .put((byte) 1).put((byte) 1).put(icc).array();
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("icc.jpg"), afterSoi(plain, iccSegment)))).isEmpty();

        byte[] adobe = {(byte) 0xFF, (byte) 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 1};
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("adobe.jpg"), afterSoi(plain, adobe)))).isEmpty();

        assertThat(FastJpeg.suitable(TestHomes.jpegLike(dir.resolve("noise.jpg"), 7, 500))).isEmpty();
        assertThat(FastJpeg.suitable(Files.write(dir.resolve("png.png"), TestImages.encode(color, "png")))).isEmpty();
    }

    private static void assertSameAsImageIo(Path f) throws Exception {
        Optional<FastJpeg.Frame> frame = FastJpeg.suitable(f);
        assertThat(frame).as("%s is a JPEG the fast path takes", f.getFileName()).isPresent();
        Optional<ImageHashes.Result> fast = FastJpeg.hash(f, frame.get());
        assertThat(fast).as("TurboJPEG decoded %s (%s)", f.getFileName(), TurboJpeg.unavailable()).isPresent();
        assertThat(fast.get()).as(f.getFileName().toString()).isEqualTo(ImageHashes.ofDecodedByImageIo(f));
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
