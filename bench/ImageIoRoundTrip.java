// SPDX-License-Identifier: Apache-2.0
import java.awt.image.BufferedImage;
import java.io.File;
import javax.imageio.ImageIO;

/**
 * The reference of bench/redact.sh: a plain ImageIO decode and JPEG encode (default quality) of one
 * image, as a whole process. Prints the in-process decode and encode times in milliseconds.
 */
public final class ImageIoRoundTrip {
    private ImageIoRoundTrip() {}

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        BufferedImage img = ImageIO.read(new File(args[0]));
        long t1 = System.nanoTime();
        if (!ImageIO.write(img, "jpeg", new File(args[1]))) {
            throw new IllegalStateException("no JPEG writer");
        }
        long t2 = System.nanoTime();
        System.out.printf("decode_ms=%d encode_ms=%d%n", (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    }
}
