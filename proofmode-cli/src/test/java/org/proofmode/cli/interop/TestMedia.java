// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;

/** Media files for tests, and an independent SHA-256. */
final class TestMedia {
    /** The first bytes of a JPEG/JFIF file, which is all the prover's sniffer needs. */
    static final byte[] JPEG_MAGIC = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0};

    private TestMedia() {}

    /** Writes a small file that starts as a JPEG and continues with 4 KiB of bytes unique to {@code seed}. */
    static Path jpeg(Path dir, String name, long seed) throws IOException {
        return jpeg(dir, name, 4096, seed);
    }

    /**
     * Writes a file of {@code size} bytes that starts as a JPEG and continues with bytes unique to
     * {@code seed} (random, so a zip cannot shrink it), a MiB at a time: any size, in little memory.
     */
    static Path jpeg(Path dir, String name, long size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] chunk = new byte[(int) Math.min(size, 1 << 20)];
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += chunk.length) {
                random.nextBytes(chunk);
                if (written == 0) {
                    System.arraycopy(JPEG_MAGIC, 0, chunk, 0, JPEG_MAGIC.length);
                }
                out.write(chunk, 0, (int) Math.min(chunk.length, size - written));
            }
        }
        return file;
    }

    /** The SHA-256 of a file, streamed, as lower-case hex. */
    static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) != -1) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
