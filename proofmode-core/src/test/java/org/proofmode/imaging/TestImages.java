// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import javax.imageio.ImageIO;

/** Photo-like test images made in code: gradients, noise, shapes and text (fine detail to hide). */
final class TestImages {
    private TestImages() {}

    static BufferedImage detailed(int w, int h, long seed) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Random rnd = new Random(seed);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int r = (x * 255 / w + rnd.nextInt(24)) & 0xFF;
                int g = (y * 255 / h + rnd.nextInt(24)) & 0xFF;
                int b = ((x + y) * 127 / (w + h) + 64 + rnd.nextInt(24)) & 0xFF;
                img.setRGB(x, y, r << 16 | g << 8 | b);
            }
        }
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.max(10, h / 12)));
        for (int i = 0; i < 6; i++) {
            g.drawString("ID 4711-" + i + " SECRET NAME", w / 20, h / 8 + i * h / 7);
        }
        g.setColor(Color.ORANGE);
        g.fillOval(w / 3, h / 3, w / 4, h / 4);
        g.dispose();
        return img;
    }

    static byte[] encode(BufferedImage img, String format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, format, out);
        return out.toByteArray();
    }
}
