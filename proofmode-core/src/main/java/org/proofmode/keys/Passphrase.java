// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.InputFiles;

/**
 * A secret passphrase held as characters so that it can be cleared after use. Close it (or call
 * {@link #clear()}) as soon as the key it unlocks is no longer needed.
 *
 * <p>Security: {@link #toString()} never shows the secret; {@link #chars()} is the one access step.
 */
public final class Passphrase implements AutoCloseable {
    private static final char[] ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789".toCharArray();

    private final char[] chars;
    private boolean cleared;

    private Passphrase(char[] chars) {
        this.chars = chars;
    }

    /**
     * Takes ownership of the characters: the caller must not use or clear the array afterwards.
     *
     * @param chars the passphrase; must not be empty
     * @throws IllegalArgumentException if empty
     */
    public static Passphrase adopt(char[] chars) {
        Objects.requireNonNull(chars, "chars");
        if (chars.length == 0) {
            throw new IllegalArgumentException("empty passphrase");
        }
        return new Passphrase(chars);
    }

    /** Makes a random passphrase of 6 groups of 5 characters (about 150 bits). */
    public static Passphrase random() {
        SecureRandom rnd = new SecureRandom();
        char[] out = new char[6 * 5 + 5];
        int j = 0;
        for (int g = 0; g < 6; g++) {
            if (g > 0) {
                out[j++] = '-';
            }
            for (int i = 0; i < 5; i++) {
                out[j++] = ALPHABET[rnd.nextInt(ALPHABET.length)];
            }
        }
        return new Passphrase(out);
    }

    /**
     * Reads a passphrase from a file: its first line (UTF-8), trailing white space removed. Generated
     * passphrases are kept so beside the key they protect.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such file,
     *     {@link Failure#IO} if it cannot be read, {@link Failure#KEY_LOCKED} if the line is empty
     */
    public static Passphrase read(Path file) {
        if (!Files.exists(file)) {
            throw new ProofModeException(Failure.INPUT_MISSING, "passphrase file not found: " + file);
        }
        byte[] bytes = InputFiles.read(file, InputFiles.PASSPHRASE_BYTES, "passphrase file");
        try {
            int nl = 0;
            while (nl < bytes.length && bytes[nl] != '\n' && bytes[nl] != '\r') {
                nl++;
            }
            CharBuffer cb = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes, 0, nl));
            int end = cb.limit();
            while (end > 0 && Character.isWhitespace(cb.get(end - 1))) {
                end--;
            }
            char[] chars = new char[end];
            cb.get(chars, 0, end);
            Arrays.fill(cb.array(), '\0');
            if (chars.length == 0) {
                throw new ProofModeException(Failure.KEY_LOCKED, "the passphrase file " + file + " is empty");
            }
            return adopt(chars);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /**
     * Writes the passphrase to an owner-only file in an owner-only folder, replacing it atomically.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public void writeOwnerOnly(Path file) {
        ByteBuffer buf = StandardCharsets.UTF_8.encode(CharBuffer.wrap(chars()));
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        Arrays.fill(buf.array(), (byte) 0);
        try {
            AtomicFiles.ownerOnlyDirectory(file.getParent());
            AtomicFiles.write(file, bytes, true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + file + ": " + e.getMessage(), e);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /**
     * Returns the secret characters themselves (not a copy).
     *
     * @throws IllegalStateException if already cleared
     */
    public char[] chars() {
        if (cleared) {
            throw new IllegalStateException("passphrase already cleared");
        }
        return chars;
    }

    /** Overwrites the characters. */
    public void clear() {
        Arrays.fill(chars, '\0');
        cleared = true;
    }

    @Override
    public void close() {
        clear();
    }

    @Override
    public String toString() {
        return "Passphrase[***]";
    }
}
