// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.bouncycastle.bcpg.ArmoredInputStream;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.opentest4j.AssertionFailedError;

/**
 * Byte-level recipes that turn a valid proof into an invalid one, for tests that must see each defect
 * detected. Every recipe changes exactly what it says and nothing else.
 */
public final class Tamper {
    private Tamper() {}

    /**
     * Flips the lowest bit of the byte at {@code offset}, in place. An ASCII letter or digit stays a
     * letter or digit, so a text file keeps its syntax when the offset is inside a value.
     *
     * @throws AssertionFailedError if the offset is outside the file
     */
    public static void flipByte(Path file, long offset) {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            if (offset < 0 || offset >= f.length()) {
                fail("offset " + offset + " is outside " + file + " (" + f.length() + " bytes)");
            }
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x01);
        } catch (IOException e) {
            fail("cannot change " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the offset of the first occurrence of {@code text} (UTF-8) in a file, to aim
     * {@link #flipByte} at a known place.
     *
     * @throws AssertionFailedError if the text does not occur
     */
    public static long offsetOf(Path file, String text) {
        byte[] hay = read(file);
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return fail("'" + text + "' does not occur in " + file);
    }

    /**
     * Changes the last byte of the signature value inside an armored OpenPGP signature and armors it
     * again with a correct checksum, in place. The result is a well-formed signature that does not
     * verify (where flipping an armored character would only break the armor checksum).
     */
    public static void breakSignatureValue(Path armoredSignature) {
        byte[] packets;
        try (InputStream in = ArmoredInputStream.builder().build(Files.newInputStream(armoredSignature))) {
            packets = in.readAllBytes();
        } catch (IOException e) {
            fail(armoredSignature + " is not an armored OpenPGP signature: " + e.getMessage(), e);
            return;
        }
        if (packets.length == 0) {
            fail(armoredSignature + " holds no packet");
        }
        packets[packets.length - 1] ^= 0x01;
        ByteArrayOutputStream armored = new ByteArrayOutputStream();
        try (OutputStream out = ArmoredOutputStream.builder().clearHeaders().build(armored)) {
            out.write(packets);
        } catch (IOException e) {
            fail("cannot armor in memory: " + e.getMessage(), e);
        }
        write(armoredSignature, armored.toByteArray());
    }

    /**
     * Copies a zip, replacing the content of one entry.
     *
     * @throws AssertionFailedError if the entry is not in the zip
     */
    public static void replaceEntry(Path zip, Path out, String name, byte[] content) {
        Map<String, byte[]> entries = readZip(zip);
        if (!entries.containsKey(name)) {
            fail(name + " is not in " + zip + "; it has " + entries.keySet());
        }
        entries.put(name, content.clone());
        writeZip(out, entries);
    }

    /**
     * Copies a zip without one entry.
     *
     * @throws AssertionFailedError if the entry is not in the zip
     */
    public static void removeEntry(Path zip, Path out, String name) {
        Map<String, byte[]> entries = readZip(zip);
        if (entries.remove(name) == null) {
            fail(name + " is not in " + zip + "; it has " + entries.keySet());
        }
        writeZip(out, entries);
    }

    /**
     * Copies a zip with one more entry, written last.
     *
     * @throws AssertionFailedError if an entry of that name exists already
     */
    public static void addEntry(Path zip, Path out, String name, byte[] content) {
        Map<String, byte[]> entries = readZip(zip);
        if (entries.containsKey(name)) {
            fail(name + " is in " + zip + " already");
        }
        entries.put(name, content.clone());
        writeZip(out, entries);
    }

    /**
     * Reads every entry of a small zip into memory, in the zip's order.
     *
     * @return entry name to content
     */
    public static Map<String, byte[]> readZip(Path zip) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    if (entries.put(e.getName(), in.readAllBytes()) != null) {
                        fail(zip + " has two entries named " + e.getName());
                    }
                }
            }
        } catch (IOException e) {
            fail("cannot read " + zip + ": " + e.getMessage(), e);
        }
        return entries;
    }

    private static void writeZip(Path out, Map<String, byte[]> entries) {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            fail("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(Objects.requireNonNull(file, "file"));
        } catch (IOException e) {
            return fail("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            fail("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
