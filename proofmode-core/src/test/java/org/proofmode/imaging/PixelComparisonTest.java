// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

class PixelComparisonTest {
    private static final Box REGION = new Box(100, 60, 80, 60);

    @Test
    void compare_findsOneChangedPixelOutside_inALosslessCopy() throws Exception {
        BufferedImage src = TestImages.detailed(320, 200, 11);
        Picture original = Picture.decode(TestImages.encode(src, "png"));
        Picture copy = Picture.decode(TestImages.encode(src, "png"));
        copy.fill(REGION);
        BufferedImage edited = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 200; y++) {
            for (int x = 0; x < 320; x++) {
                edited.setRGB(x, y, copy.argb(x, y));
            }
        }
        edited.setRGB(5, 5, edited.getRGB(5, 5) ^ 1);

        PixelComparison.Result ok = PixelComparison.compare(original, Picture.decode(copy.encode(ImageFormat.PNG)), List.of(REGION), true);
        PixelComparison.Result bad = PixelComparison.compare(original, Picture.decode(TestImages.encode(edited, "png")), List.of(REGION), true);

        assertThat(ok.outsideUnchanged()).isTrue();
        assertThat(ok.regionChange().get(0)).isGreaterThan(PixelComparison.MIN_REGION_CHANGE);
        assertThat(bad.outsideUnchanged()).isFalse();
        assertThat(bad.outsideChanged()).isEqualTo(1);
        assertThat(bad.worstBlock()).contains(new Box(0, 0, 16, 16));
    }

    @Test
    void compare_allowsReencoding_butFindsAnObjectPaintedOutside_inAJpegCopy() throws Exception {
        BufferedImage src = TestImages.detailed(320, 200, 12);
        Picture original = Picture.decode(TestImages.encode(src, "png"));
        Picture copy = Picture.decode(TestImages.encode(src, "png"));
        copy.pixelate(REGION);
        byte[] jpeg = copy.encode(ImageFormat.JPEG);
        Picture decoded = Picture.decode(jpeg);
        BufferedImage edited = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 200; y++) {
            for (int x = 0; x < 320; x++) {
                edited.setRGB(x, y, decoded.argb(x, y));
            }
        }
        Graphics2D g = edited.createGraphics();
        g.setColor(Color.MAGENTA);
        g.fillRect(250, 150, 6, 6);
        g.dispose();
        Picture painted = Picture.of(edited, false, 1);

        PixelComparison.Result ok = PixelComparison.compare(original, decoded, List.of(REGION), false);
        PixelComparison.Result bad = PixelComparison.compare(original, painted, List.of(REGION), false);

        assertThat(ok.outsideUnchanged()).as("worst block RMS %s", ok.worstBlockRmse()).isTrue();
        assertThat(bad.outsideUnchanged()).isFalse();
        assertThat(bad.worstBlock()).contains(new Box(240, 144, 16, 16));
    }

    @Test
    void compare_reportsADifferentSize() throws Exception {
        Picture a = Picture.decode(TestImages.encode(TestImages.detailed(100, 80, 13), "png"));
        Picture b = Picture.decode(TestImages.encode(TestImages.detailed(80, 100, 13), "png"));
        assertThat(PixelComparison.compare(a, b, List.of(), true).sameSize()).isFalse();
        assertThat(PixelComparison.compare(a, b, List.of(), true).outsideUnchanged()).isFalse();
    }
}
