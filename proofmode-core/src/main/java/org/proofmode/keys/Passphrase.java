// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

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
