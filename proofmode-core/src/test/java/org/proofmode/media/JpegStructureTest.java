// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;
import org.proofmode.context.ImageHashSource;
import org.proofmode.context.MediaMetadataSource;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

class JpegStructureTest {
    @TempDir
    Path dir;

    private static byte[] encodedJpeg() throws Exception {
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 48; y++) {
            for (int x = 0; x < 64; x++) {
                img.setRGB(x, y, (x * 4) << 16 | (y * 5) << 8 | 80);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ImageIO.write(img, "jpeg", out)).isTrue();
        return out.toByteArray();
    }

    /** A JPEG start-of-image and APP0 marker, then 1 MiB of random bytes (as the batch benchmark's media). */
    private static byte[] headerAndNoise(long seed) {
        byte[] noise = new byte[1 << 20];
        new Random(seed).nextBytes(noise);
        noise[0] = (byte) 0xFF;
        noise[1] = (byte) 0xD8;
        noise[2] = (byte) 0xFF;
        noise[3] = (byte) 0xE0;
        return noise;
    }

    @Test
    void problem_empty_encodedPhoto() throws Exception {
        assertThat(JpegStructure.problem(Files.write(dir.resolve("a.jpg"), encodedJpeg()))).isEmpty();
    }

    @Test
    void problem_empty_cameraSampleWithManySegments() throws Exception {
        assertThat(JpegStructure.problem(TestHomes.samples().resolve("c2pa/C.jpg"))).isEmpty();
        assertThat(JpegStructure.problem(TestHomes.samples().resolve("c2pa/CA.jpg"))).isEmpty();
    }

    @Test
    void problem_empty_fillBytesAndCommentBeforeTheFrame() throws Exception {
        byte[] jpeg = encodedJpeg();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, 2);
        out.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE, 0, 7, 'h', 'e', 'l', 'l', 'o'});
        out.write(jpeg, 2, jpeg.length - 2);
        assertThat(JpegStructure.problem(Files.write(dir.resolve("b.jpg"), out.toByteArray()))).isEmpty();
    }

    @Test
    void problem_named_headerFollowedByNoise() throws Exception {
        byte[] noise = headerAndNoise(5);
        noise[4] = 0x01; // a first segment of 256 bytes, then noise where the next marker should be
        noise[5] = 0x00;
        noise[4 + 256] = 0x42;
        Path f = Files.write(dir.resolve("noise.jpg"), noise);

        assertThat(JpegStructure.problem(f)).contains("no segment marker at byte 260");
    }

    @Test
    void problem_named_truncatedInsideAHeader() throws Exception {
        byte[] jpeg = encodedJpeg();
        Path f = Files.write(dir.resolve("cut.jpg"), Arrays.copyOf(jpeg, 30));
        assertThat(JpegStructure.problem(f)).hasValueSatisfying(p -> assertThat(p).containsAnyOf("runs past the end", "ends at byte"));
    }

    @Test
    void sources_warnAndRecordNoImageSize_notAWellFormedJpeg() throws Exception {
        byte[] noise = headerAndNoise(6);
        Path f = Files.write(dir.resolve("fake.jpg"), noise);
        MediaFile media = new MediaFile(f, new MediaType(MediaKind.IMAGE, "image/jpeg"), noise.length, Instant.now());
        ProofRecord.Builder record = ProofRecord.builder();

        new MediaMetadataSource(false, Optional.empty()).contribute(media, record);
        new ImageHashSource().contribute(media, record);

        assertThat(record.get("Warning.Media")).hasValueSatisfying(w -> assertThat(w).startsWith("not a well-formed JPEG ("));
        assertThat(record.get("Warning.Image")).hasValueSatisfying(w -> assertThat(w).startsWith("not a well-formed JPEG ("));
        assertThat(record.get("Image.Width")).isEmpty();
        assertThat(record.get("Image.PixelHash")).isEmpty();
    }
}
