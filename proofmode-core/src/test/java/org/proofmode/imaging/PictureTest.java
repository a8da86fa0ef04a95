// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PictureTest {
    private static final Box REGION = new Box(40, 30, 120, 90);

    @Test
    void pixelate_changesTheRegionOnly_inALosslessCopy() throws Exception {
        Picture original = Picture.decode(TestImages.encode(TestImages.detailed(320, 200, 1), "png"));
        Picture copy = Picture.decode(TestImages.encode(TestImages.detailed(320, 200, 1), "png"));

        copy.pixelate(REGION);
        Picture decoded = Picture.decode(copy.encode(ImageFormat.PNG));

        PixelComparison.Result c = PixelComparison.compare(original, decoded, List.of(REGION), true);
        assertThat(c.outsideUnchanged()).isTrue();
        assertThat(c.regionChange().get(0)).isGreaterThan(5.0);
    }

    @Test
    void pixelate_leavesOneColourPerBlock_ofAtLeast8Pixels() throws Exception {
        Picture p = Picture.decode(TestImages.encode(TestImages.detailed(320, 200, 2), "png"));
        int block = Picture.blockSize(REGION);

        p.pixelate(REGION);

        assertThat(block).isGreaterThanOrEqualTo(8).isEqualTo(15);
        Set<Integer> colours = new HashSet<>();
        for (int y = REGION.y(); y < REGION.y() + REGION.height(); y++) {
            for (int x = REGION.x(); x < REGION.x() + REGION.width(); x++) {
                colours.add(p.argb(x, y));
                int cellX = REGION.x() + (x - REGION.x()) / block * block;
                int cellY = REGION.y() + (y - REGION.y()) / block * block;
                assertThat(p.argb(x, y)).isEqualTo(p.argb(cellX, cellY));
            }
        }
        assertThat(colours.size()).isLessThanOrEqualTo((120 / block) * (90 / block));
    }

    /**
     * Two originals whose difference averages to zero within every block give the same output: whatever
     * finer than a block was there (a face, a name) is gone, and no sharpening can bring it back.
     */
    @Test
    void blurAndPixelate_giveTheSameOutput_forOriginalsThatDifferOnlyBelowTheBlockSize() throws Exception {
        Box region = new Box(40, 30, 96, 96);
        assertThat(Picture.blockSize(region)).isEqualTo(16);
        BufferedImage a = TestImages.detailed(320, 200, 3);
        BufferedImage b = TestImages.detailed(320, 200, 3);
        for (int y = region.y(); y < region.y() + region.height(); y++) {
            for (int x = region.x(); x < region.x() + region.width(); x++) {
                // +20/-20 in a checkerboard: each 16 by 16 block keeps its sum, the detail differs everywhere.
                int d = (x + y) % 2 == 0 ? 20 : -20;
                int p = a.getRGB(x, y);
                int r = Math.max(20, Math.min(235, (p >> 16) & 0xFF));
                a.setRGB(x, y, (p & 0xFF00FFFF) | r << 16);
                b.setRGB(x, y, (p & 0xFF00FFFF) | (r + d) << 16);
            }
        }
        for (String method : List.of("blur", "pixelate")) {
            Picture pa = Picture.decode(TestImages.encode(a, "png"));
            Picture pb = Picture.decode(TestImages.encode(b, "png"));
            assertThat(pa.argb(region.x(), region.y())).isNotEqualTo(pb.argb(region.x(), region.y()));
            if (method.equals("blur")) {
                pa.blur(region);
                pb.blur(region);
            } else {
                pa.pixelate(region);
                pb.pixelate(region);
            }
            for (int y = region.y(); y < region.y() + region.height(); y++) {
                for (int x = region.x(); x < region.x() + region.width(); x++) {
                    assertThat(pa.argb(x, y)).as("%s at %d,%d", method, x, y).isEqualTo(pb.argb(x, y));
                }
            }
        }
    }

    @Test
    void pixelate_cannotBeMatchedBackByUpscaling() throws Exception {
        BufferedImage src = TestImages.detailed(320, 200, 4);
        Picture original = Picture.decode(TestImages.encode(src, "png"));
        Picture p = Picture.decode(TestImages.encode(src, "png"));
        p.pixelate(REGION);

        // The best an attacker gets from block averages by upscaling: bilinear interpolation between block centres.
        int block = Picture.blockSize(REGION);
        double psnr = Quality.psnr(original, Quality.bilinearFromBlocks(p, REGION, block), REGION);
        double corr = Quality.highFrequencyCorrelation(original, Quality.bilinearFromBlocks(p, REGION, block), REGION);

        assertThat(psnr).as("PSNR of the upscaled guess against the original region").isLessThan(22.0);
        assertThat(corr).as("correlation of fine detail").isLessThan(0.3);
        // The measures do tell a copy that still shows the region: a re-encoded JPEG scores high on both.
        Picture reencoded = Picture.decode(Picture.decode(TestImages.encode(src, "png")).encode(ImageFormat.JPEG));
        assertThat(Quality.psnr(original, reencoded, REGION)).isGreaterThan(30.0);
        assertThat(Quality.highFrequencyCorrelation(original, reencoded, REGION)).isGreaterThan(0.9);
    }

    @Test
    void decode_givesThePixelsImageIoGives_forAJpeg() throws Exception {
        byte[] jpeg = TestImages.encode(TestImages.detailed(123, 77, 8), "jpeg");
        BufferedImage reference = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(jpeg));

        Picture p = Picture.decode(jpeg);

        assertThat(p.width()).isEqualTo(123);
        for (int y = 0; y < 77; y++) {
            for (int x = 0; x < 123; x++) {
                assertThat(p.argb(x, y)).isEqualTo(reference.getRGB(x, y));
            }
        }
    }

    @Test
    void fill_paintsTheRegionOpaqueBlack() throws Exception {
        Picture p = Picture.decode(TestImages.encode(TestImages.detailed(100, 80, 5), "png"));
        p.fill(new Box(10, 10, 20, 20));
        assertThat(p.argb(10, 10)).isEqualTo(0xFF000000);
        assertThat(p.argb(29, 29)).isEqualTo(0xFF000000);
        assertThat(p.argb(30, 30)).isNotEqualTo(0xFF000000);
    }

    @Test
    void filters_refuseARegionOutsideTheImage() throws Exception {
        Picture p = Picture.decode(TestImages.encode(TestImages.detailed(100, 80, 6), "png"));
        assertThatThrownBy(() -> p.pixelate(new Box(90, 10, 20, 20))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the 100x80 image");
    }

    @Test
    void decode_refusesWhatIsNotAnImage() {
        assertThatThrownBy(() -> Picture.decode("not an image".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .isInstanceOf(Picture.Undecodable.class);
    }

    @Test
    void encode_writesJpegWithoutChromaSubsamplingAndWithinTolerance() throws Exception {
        BufferedImage src = TestImages.detailed(320, 200, 7);
        Picture original = Picture.decode(TestImages.encode(src, "png"));
        Picture copy = Picture.decode(TestImages.encode(src, "png"));

        Picture jpeg = Picture.decode(copy.encode(ImageFormat.JPEG));

        PixelComparison.Result c = PixelComparison.compare(original, jpeg, List.of(), false);
        assertThat(c.outsideUnchanged()).as("worst block RMS %s", c.worstBlockRmse()).isTrue();
        assertThat(c.worstBlockRmse()).isGreaterThan(0).isLessThan(PixelComparison.JPEG_MAX_BLOCK_RMSE);
    }
}
