// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.x25519.X25519KeyFactory;
import com.exceptionfactory.jagged.x25519.X25519RecipientStanzaReaderFactory;
import java.nio.CharBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * age X25519 identities ({@code AGE-SECRET-KEY-1…}) read from identity files, as {@code age-keygen} writes
 * them. The secret text is held in {@code char[]} and cleared by {@link #close}.
 */
public final class Identities implements AutoCloseable {
    private final List<char[]> secrets;
    private final String source;

    Identities(List<char[]> secrets, String source) {
        this.secrets = new ArrayList<>(secrets);
        this.source = source;
    }

    /** The files the identities came from, for messages. */
    public String source() {
        return source;
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** The recipient ({@code age1…}) of each identity, in order: what to encrypt to so that it opens. */
    public List<String> recipients() {
        List<String> out = new ArrayList<>();
        for (char[] s : secrets) {
            out.add(recipientOf(s));
        }
        return out;
    }

    List<RecipientStanzaReader> readers() {
        List<RecipientStanzaReader> out = new ArrayList<>();
        for (char[] s : secrets) {
            try {
                out.add(X25519RecipientStanzaReaderFactory.newRecipientStanzaReader(CharBuffer.wrap(s)));
            } catch (GeneralSecurityException | RuntimeException e) {
                throw new ProofModeException(Failure.BAD_DATA, source + ": not an age identity (AGE-SECRET-KEY-1…)", e);
            }
        }
        return out;
    }

    /** Checks that each identity decodes (its checksum, its length), so that a bad file fails when read. */
    void check() {
        for (char[] s : secrets) {
            recipientOf(s);
        }
    }

    private String recipientOf(char[] secret) {
        byte[] encoded = new byte[secret.length];
        for (int i = 0; i < secret.length; i++) {
            encoded[i] = (byte) secret[i];
        }
        try {
            return new X25519KeyFactory().translateKey(new SecretKeySpec(encoded, "X25519")).toString();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, source + ": not an age identity (AGE-SECRET-KEY-1…): "
                    + "its checksum or length is wrong", e);
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
    }

    /** Clears the secret text. */
    @Override
    public void close() {
        for (char[] s : secrets) {
            Arrays.fill(s, '\0');
        }
    }
}
