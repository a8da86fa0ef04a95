// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Random;
import java.util.zip.CRC32;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;
import org.proofmode.util.Hex;

class ImageHashesTest {
    private static final int[] TYPES = {BufferedImage.TYPE_3BYTE_BGR, BufferedImage.TYPE_INT_RGB, BufferedImage.TYPE_INT_ARGB,
        BufferedImage.TYPE_4BYTE_ABGR, BufferedImage.TYPE_INT_BGR, BufferedImage.TYPE_BYTE_GRAY, BufferedImage.TYPE_INT_ARGB_PRE,
        BufferedImage.TYPE_USHORT_565_RGB, BufferedImage.TYPE_BYTE_INDEXED};

    /**
     * The luma rows are summed eight bytes at a time; the cells' sums are those of adding byte by byte, for
     * widths from 1 to 70,000 pixels (above 32,768 a cell is more than 128 words of eight bytes, after which
     * the 16-bit lanes are added up and started again), at any offset in the buffer and for bytes of every
     * value.
     */
    @Property(tries = 300)
    void lumaRow_sumsAsByteByByte(@ForAll @IntRange(min = 1, max = 70_000) int w, @ForAll @IntRange(min = 1, max = 12) int h,
            @ForAll @IntRange(min = 0, max = 15) int offset, @ForAll long seed) {
        Random rnd = new Random(seed);
        byte[] row = new byte[offset + w];
        ImageHashes.Luma luma = new ImageHashes.Luma(w, h);
        long[] expected = new long[32 * 32];
        for (int y = 0; y < h; y++) {
            boolean bright = rnd.nextInt(4) == 0; // some rows all 255: the lanes' largest sums
            for (int x = 0; x < w; x++) {
                row[offset + x] = (byte) (bright ? 255 : rnd.nextInt(256));
                expected[(int) ((long) y * 32 / h) * 32 + (int) ((long) x * 32 / w)] += 1000L * (row[offset + x] & 0xFF);
            }
            luma.lumaRow(y, row, offset);
        }
        assertThat(luma.sums()).isEqualTo(expected);
    }

    @TempDir
    Path dir;

    @Test
    void pixelHash_isSha256OfWidthHeightAndRgbaRows() throws Exception {
        BufferedImage img = new BufferedImage(2, 1, BufferedImage.TYPE_INT_ARGB);
        img.setRGB(0, 0, 0x80102030);
        img.setRGB(1, 0, 0xFFFFFFFF);
        byte[] canonical = ByteBuffer.allocate(16).putInt(2).putInt(1)
                .put(new byte[] {0x10, 0x20, 0x30, (byte) 0x80, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}).array();

        assertThat(ImageHashes.of(img).pixelHash()).isEqualTo(Hex.encode(MessageDigest.getInstance("SHA-256").digest(canonical)));
    }

    @Property(tries = 40)
    void pixelHash_equalsTheGetRgbDefinition_forEveryImageType(@ForAll @IntRange(min = 0, max = 8) int typeIndex,
            @ForAll @IntRange(min = 1, max = 70) int w, @ForAll @IntRange(min = 1, max = 50) int h, @ForAll long seed) throws Exception {
        BufferedImage img = new BufferedImage(w, h, TYPES[typeIndex]);
        Random rnd = new Random(seed);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                img.setRGB(x, y, rnd.nextInt());
            }
        }
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(ByteBuffer.allocate(8).putInt(w).putInt(h).array());
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int p = img.getRGB(x, y);
                sha.update(new byte[] {(byte) (p >> 16), (byte) (p >> 8), (byte) p, (byte) (p >>> 24)});
            }
        }

        assertThat(ImageHashes.of(img).pixelHash()).isEqualTo(Hex.encode(sha.digest()));
    }

    @Test
    void of_givesOnePixelHash_forOnePictureSavedAsPngBmpAndTiff_andHashesGif() throws Exception {
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(5);
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                img.setRGB(x, y, random.nextInt(0x1000000));
            }
        }
        String expected = ImageHashes.of(img).pixelHash();

        for (String format : new String[] {"png", "bmp", "tiff"}) {
            Path file = dir.resolve("picture." + format);
            assertThat(ImageIO.write(img, format, file.toFile())).as(format).isTrue();
            assertThat(ImageHashes.of(file).pixelHash()).as(format).isEqualTo(expected);
        }
        Path gif = dir.resolve("picture.gif");
        assertThat(ImageIO.write(img, "gif", gif.toFile())).isTrue();
        assertThat(ImageHashes.of(gif).pixelHash()).matches("[0-9a-f]{64}").isNotEqualTo(expected); // a 256-colour palette
    }

    @Test
    void pixelHash_staysTheSame_whenOnlyMetadataChanges() throws Exception {
        Path photo = TestHomes.examplePhoto();
        byte[] bytes = Files.readAllBytes(photo);
        byte[] comment = "edited by a metadata tool".getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream edited = new ByteArrayOutputStream();
        edited.write(bytes, 0, 2);
        edited.write(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, (byte) (comment.length + 2)});
        edited.write(comment);
        edited.write(bytes, 2, bytes.length - 2);
        Path copy = Files.write(dir.resolve("edited.jpg"), edited.toByteArray());

        ImageHashes.Result a = ImageHashes.of(photo);
        ImageHashes.Result b = ImageHashes.of(copy);

        assertThat(Files.readAllBytes(copy)).isNotEqualTo(bytes);
        assertThat(b.pixelHash()).isEqualTo(a.pixelHash());
        assertThat(b.perceptualHash()).isEqualTo(a.perceptualHash());
        assertThat(a.width()).isEqualTo(ImageIO.read(photo.toFile()).getWidth()).isEqualTo(2048);
    }

    @Test
    void perceptualHash_staysClose_afterReencodingAtQuality70_andIsFarFromAnotherPhoto() throws Exception {
        Path photo = TestHomes.examplePhoto();
        Path other = Files.write(dir.resolve("other.jpg"), TestImages.encode(TestImages.detailed(640, 480, 5), "jpg"));
        BufferedImage original = ImageIO.read(photo.toFile());
        Path reencoded = Files.write(dir.resolve("q70.jpg"), jpeg(original, 0.70f));
        BufferedImage half = new BufferedImage(original.getWidth() / 2, original.getHeight() / 2, BufferedImage.TYPE_INT_RGB);
        half.createGraphics().drawImage(original, 0, 0, half.getWidth(), half.getHeight(), null);
        Path scaled = Files.write(dir.resolve("half.jpg"), jpeg(half, 0.70f));

        long p = ImageHashes.of(photo).perceptualHash();

        assertThat(ImageHashes.of(reencoded).pixelHash()).isNotEqualTo(ImageHashes.of(photo).pixelHash());
        assertThat(ImageHashes.distance(p, ImageHashes.of(reencoded).perceptualHash())).isLessThanOrEqualTo(4);
        assertThat(ImageHashes.distance(p, ImageHashes.of(scaled).perceptualHash())).isLessThanOrEqualTo(6);
        assertThat(ImageHashes.distance(p, ImageHashes.of(other).perceptualHash())).isGreaterThanOrEqualTo(16);
    }

    @Test
    void of_refusesBeforeDecoding_whenImageHasMoreThanTheCap() throws IOException {
        Path png = Files.write(dir.resolve("huge.png"), pngHeader(20_000, 20_000));

        assertThatThrownBy(() -> ImageHashes.of(png)).isInstanceOf(ImageHashes.NotHashed.class)
                .hasMessageContaining("20000x20000");
    }

    @Test
    void of_failsWithIoException_whenImageIsDamaged() throws IOException {
        Path bad = TestHomes.jpegLike(dir.resolve("bad.jpg"), 7, 500);

        assertThatThrownBy(() -> ImageHashes.of(bad)).isInstanceOf(IOException.class);
    }

    static byte[] jpeg(BufferedImage img, float quality) throws IOException {
        ImageWriter w = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = w.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(quality);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            w.setOutput(ios);
            w.write(null, new IIOImage(img, null, null), p);
        } finally {
            w.dispose();
        }
        return out.toByteArray();
    }

    /** A PNG signature and IHDR chunk only: enough for a decoder to report the size. */
    static byte[] pngHeader(int width, int height) {
        ByteBuffer ihdr = ByteBuffer.allocate(17).put("IHDR".getBytes(StandardCharsets.US_ASCII)).putInt(width).putInt(height)
                .put(new byte[] {8, 2, 0, 0, 0});
        CRC32 crc = new CRC32();
        crc.update(ihdr.array());
        return ByteBuffer.allocate(8 + 4 + 17 + 4).put(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10}).putInt(13)
                .put(ihdr.array()).putInt((int) crc.getValue()).array();
    }
}
