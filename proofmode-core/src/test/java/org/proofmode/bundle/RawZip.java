// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;

/**
 * Writes zip files byte by byte, so that tests can make what {@link java.util.zip.ZipOutputStream}
 * refuses to: duplicate names, names with NUL, sizes that lie, entries compressed ahead of time.
 */
final class RawZip {
    /** One entry, with its data as stored (compressed for DEFLATED) and the sizes it declares. */
    record Entry(String name, int method, byte[] stored, long crc, long declaredSize) {
        /** A STORED entry that tells the truth. */
        static Entry stored(String name, byte[] data) {
            CRC32 crc = new CRC32();
            crc.update(data);
            return new Entry(name, ZipEntry.STORED, data, crc.getValue(), data.length);
        }

        /** The same entry under another name. */
        Entry named(String other) {
            return new Entry(other, method, stored, crc, declaredSize);
        }

        /** The same entry declaring another uncompressed size. */
        Entry declaring(long size) {
            return new Entry(name, method, stored, crc, size);
        }
    }

    /** Deflated bytes of many zeros, with their CRC, made once and reused. */
    record Deflated(byte[] bytes, long crc, long size) {
        /** Deflates {@code size} zero bytes, streaming (memory holds only the small output). */
        static Deflated zeros(long size) {
            Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            CRC32 crc = new CRC32();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] in = new byte[1 << 20];
            byte[] buf = new byte[1 << 16];
            for (long done = 0; done < size; ) {
                int n = (int) Math.min(in.length, size - done);
                crc.update(in, 0, n);
                d.setInput(in, 0, n);
                while (!d.needsInput()) {
                    out.write(buf, 0, d.deflate(buf));
                }
                done += n;
            }
            d.finish();
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            d.end();
            return new Deflated(out.toByteArray(), crc.getValue(), size);
        }

        /** An honest DEFLATED entry of these bytes. */
        Entry entry(String name) {
            return new Entry(name, ZipEntry.DEFLATED, bytes, crc, size);
        }
    }

    private RawZip() {}

    /** Writes the entries as a zip file. */
    static Path write(Path file, List<Entry> entries) {
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(bytes(entries));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entries as zip bytes: local headers and data, central directory, end record. */
    static byte[] bytes(List<Entry> entries) {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        ByteArrayOutputStream central = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        for (Entry e : entries) {
            byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
            offsets.add(zip.size());
            u32(zip, 0x04034b50);
            u16(zip, 20);
            u16(zip, 0x0800);
            u16(zip, e.method());
            u16(zip, 0);
            u16(zip, 0x21);
            u32(zip, e.crc());
            u32(zip, e.stored().length);
            u32(zip, e.declaredSize());
            u16(zip, name.length);
            u16(zip, 0);
            zip.writeBytes(name);
            zip.writeBytes(e.stored());
        }
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
            u32(central, 0x02014b50);
            u16(central, 20);
            u16(central, 20);
            u16(central, 0x0800);
            u16(central, e.method());
            u16(central, 0);
            u16(central, 0x21);
            u32(central, e.crc());
            u32(central, e.stored().length);
            u32(central, e.declaredSize());
            u16(central, name.length);
            u16(central, 0);
            u16(central, 0);
            u16(central, 0);
            u16(central, 0);
            u32(central, 0);
            u32(central, offsets.get(i));
            central.writeBytes(name);
        }
        int cdOffset = zip.size();
        zip.writeBytes(central.toByteArray());
        u32(zip, 0x06054b50);
        u16(zip, 0);
        u16(zip, 0);
        u16(zip, entries.size());
        u16(zip, entries.size());
        u32(zip, central.size());
        u32(zip, cdOffset);
        u16(zip, 0);
        return zip.toByteArray();
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write(v & 0xFF);
        out.write((v >>> 8) & 0xFF);
    }

    private static void u32(ByteArrayOutputStream out, long v) {
        u16(out, (int) (v & 0xFFFF));
        u16(out, (int) ((v >>> 16) & 0xFFFF));
    }
}
