// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;
import org.opentest4j.AssertionFailedError;

/**
 * Media the project makes itself, for tests that need "some photo" rather than a file made by others
 * (those are in {@link Samples}): the repository's own {@code examples/photo.jpg} and PNGs drawn here.
 */
public final class OwnMedia {
    private OwnMedia() {}

    /**
     * The repository's own photo, {@code examples/photo.jpg}: a 2048×1536 baseline JPEG test pattern with
     * camera-style EXIF fields and no content credentials (see {@code examples/README.md}). The repository
     * is the system property {@code proofmode.root}, which the build sets.
     *
     * @throws AssertionFailedError if the property is not set or the photo is missing
     */
    public static Path examplePhoto() {
        String root = System.getProperty(Samples.ROOT_PROPERTY);
        if (root == null) {
            return fail("no repository root: run the tests with Maven, which sets " + Samples.ROOT_PROPERTY);
        }
        Path photo = Path.of(root).toAbsolutePath().normalize().resolve("examples").resolve("photo.jpg");
        if (!Files.isRegularFile(photo)) {
            return fail("the repository's example photo is missing: " + photo);
        }
        return photo;
    }

    /**
     * Writes a PNG drawn here: an RGB gradient of the given size tinted by {@code seed}, so the same seed
     * gives the same pixels.
     */
    public static Path png(Path file, int width, int height, long seed) {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int tint = new Random(seed).nextInt(0x1000000);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                img.setRGB(x, y, tint ^ ((x * 255 / width) << 16 | (y * 255 / height) << 8 | ((x + y) & 0xFF)));
            }
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (!ImageIO.write(img, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer in this Java runtime");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
