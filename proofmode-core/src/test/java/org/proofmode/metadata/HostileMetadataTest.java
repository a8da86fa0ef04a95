package org.proofmode.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.imaging.ImageHashSource;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.MetadataSource;
import org.proofmode.proof.ProofRecord;

/**
 * Images built to exhaust a metadata reader: XMP nested tens of thousands of levels deep, and an EXIF
 * directory that claims billions of entries. Reading them ends with a record or a documented exception
 * (which the prover turns into a warning), within the test JVM's heap; the timeout only catches a hang.
 */
class HostileMetadataTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void contribute_endsWithinBounds_deeplyNestedXmp() throws Exception {
        StringBuilder xmp = new StringBuilder("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">");
        int depth = 50_000;
        xmp.append("<rdf:Description>".repeat(depth)).append("</rdf:Description>".repeat(depth)).append("</rdf:RDF></x:xmpmeta>");
        // PNG carries XMP in one iTXt chunk of any length (JPEG would split it over 64 KiB segments).
        ByteArrayOutputStream itxt = new ByteArrayOutputStream();
        itxt.write("XML:com.adobe.xmp".getBytes(StandardCharsets.ISO_8859_1));
        itxt.write(new byte[] {0, 0, 0, 0, 0});
        itxt.write(xmp.toString().getBytes(StandardCharsets.UTF_8));
        ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(1).putInt(1).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        png.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        chunk(png, "IHDR", ihdr.array());
        chunk(png, "iTXt", itxt.toByteArray());
        chunk(png, "IEND", new byte[0]);
        Path image = Files.write(dir.resolve("nested-xmp.png"), png.toByteArray());

        readAll(image, "image/png");
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        byte[] t = type.getBytes(StandardCharsets.ISO_8859_1);
        crc.update(t);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(t);
        out.writeBytes(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void contribute_endsWithinBounds_exifDirectoryClaimingBillionsOfEntries() throws Exception {
        ByteBuffer tiff = ByteBuffer.allocate(64).order(ByteOrder.BIG_ENDIAN);
        tiff.put(new byte[] {'M', 'M', 0, 42}).putInt(8);
        tiff.putShort((short) 0xFFFF); // 65,535 entries announced in a 64-byte block
        tiff.putShort((short) 0x010F).putShort((short) 2).putInt(Integer.MAX_VALUE).putInt(8); // Make: 2 GiB of ASCII
        byte[] exif = new byte[6 + tiff.capacity()];
        System.arraycopy("Exif\0\0".getBytes(StandardCharsets.ISO_8859_1), 0, exif, 0, 6);
        System.arraycopy(tiff.array(), 0, exif, 6, tiff.capacity());
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        jpeg.write(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE1, (byte) ((exif.length + 2) >> 8), (byte) (exif.length + 2)});
        jpeg.write(exif);
        jpeg.write(new byte[] {(byte) 0xFF, (byte) 0xD9});
        Path image = Files.write(dir.resolve("huge-exif-count.jpg"), jpeg.toByteArray());

        readAll(image, "image/jpeg");
    }

    private void readAll(Path image, String mime) throws Exception {
        MediaFile media = new MediaFile(image, new MediaType(MediaKind.IMAGE, mime), Files.size(image), Instant.now());
        for (MetadataSource source : new MetadataSource[] {new MediaMetadataSource(true, Optional.empty()), new ImageHashSource()}) {
            ProofRecord.Builder record = ProofRecord.builder();
            try {
                source.contribute(media, record);
            } catch (Exception documented) {
                record.warn(source.name(), String.valueOf(documented.getMessage()));
            }
            assertThat(record.build().fields()).as(source.name()).isNotNull();
        }
    }
}
