// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.proofmode.util.Hex;

/** SHA-256 of files and streams, read in large blocks. */
public final class Digests {
    private static final int BUFFER = 1 << 20;

    private Digests() {}

    /** A new SHA-256 instance from the platform (hardware-accelerated where the CPU allows). */
    public static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** The lower-case hex SHA-256 of a stream, read to its end (not closed). */
    public static String sha256(InputStream in) throws IOException {
        MessageDigest md = newSha256();
        byte[] buf = new byte[BUFFER];
        int n;
        while ((n = in.read(buf)) != -1) {
            md.update(buf, 0, n);
        }
        return Hex.encode(md.digest());
    }

    /** The lower-case hex SHA-256 of bytes in memory. */
    public static String sha256Hex(byte[] data) {
        return Hex.encode(newSha256().digest(data));
    }

    /** The lower-case hex SHA-256 of a file. */
    public static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        }
    }
}
