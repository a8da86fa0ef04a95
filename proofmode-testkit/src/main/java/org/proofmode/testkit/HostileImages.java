// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * Small image files built to exhaust a metadata reader: XMP nested tens of thousands of levels deep, and
 * an EXIF directory that claims more entries, and longer values, than the file holds.
 */
public final class HostileImages {
    private HostileImages() {}

    /**
     * Writes {@code nested-xmp.png}: a 1×1 PNG whose XMP packet nests {@code depth} {@code rdf:Description}
     * elements (PNG carries XMP in one iTXt chunk of any length, where JPEG would split it over 64 KiB
     * segments).
     *
     * @return the file
     */
    public static Path nestedXmpPng(Path dir, int depth) {
        StringBuilder xmp = new StringBuilder("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">");
        xmp.append("<rdf:Description>".repeat(depth)).append("</rdf:Description>".repeat(depth)).append("</rdf:RDF></x:xmpmeta>");
        ByteArrayOutputStream itxt = new ByteArrayOutputStream();
        itxt.writeBytes("XML:com.adobe.xmp".getBytes(StandardCharsets.ISO_8859_1));
        itxt.writeBytes(new byte[] {0, 0, 0, 0, 0});
        itxt.writeBytes(xmp.toString().getBytes(StandardCharsets.UTF_8));
        ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(1).putInt(1).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        png.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        chunk(png, "IHDR", ihdr.array());
        chunk(png, "iTXt", itxt.toByteArray());
        chunk(png, "IEND", new byte[0]);
        return write(dir.resolve("nested-xmp.png"), png.toByteArray());
    }

    /**
     * Writes {@code huge-exif-count.jpg}: a JPEG whose 64-byte EXIF block announces 65,535 directory
     * entries, the first a Make string of 2 GiB.
     *
     * @return the file
     */
    public static Path hugeExifCountJpeg(Path dir) {
        ByteBuffer tiff = ByteBuffer.allocate(64).order(ByteOrder.BIG_ENDIAN);
        tiff.put(new byte[] {'M', 'M', 0, 42}).putInt(8);
        tiff.putShort((short) 0xFFFF);
        tiff.putShort((short) 0x010F).putShort((short) 2).putInt(Integer.MAX_VALUE).putInt(8);
        byte[] exif = new byte[6 + tiff.capacity()];
        System.arraycopy("Exif\0\0".getBytes(StandardCharsets.ISO_8859_1), 0, exif, 0, 6);
        System.arraycopy(tiff.array(), 0, exif, 6, tiff.capacity());
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        jpeg.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE1, (byte) ((exif.length + 2) >> 8), (byte) (exif.length + 2)});
        jpeg.writeBytes(exif);
        jpeg.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD9});
        return write(dir.resolve("huge-exif-count.jpg"), jpeg.toByteArray());
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        CRC32 crc = new CRC32();
        byte[] t = type.getBytes(StandardCharsets.ISO_8859_1);
        crc.update(t);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(t);
        out.writeBytes(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    private static Path write(Path file, byte[] bytes) {
        try {
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
