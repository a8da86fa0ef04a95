// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.RecipientStanzaWriter;
import com.exceptionfactory.jagged.bech32.Bech32;
import com.exceptionfactory.jagged.bech32.Bech32Address;
import com.exceptionfactory.jagged.x25519.X25519KeyPairGenerator;
import com.exceptionfactory.jagged.x25519.X25519RecipientStanzaReaderFactory;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The store's age X25519 identity ({@code AGE-SECRET-KEY-1…}) and its recipient ({@code age1…}).
 * Its text form is {@code age-keygen}'s (comment lines, then the key), so that {@code age -d -i} takes it
 * as it is; at rest it is that text sealed with the passphrase ({@link #protect}), an age file that
 * {@code age -d} opens with the passphrase. The secret is held as {@code char[]} and cleared by
 * {@link #destroy()}.
 */
public final class StoreIdentity {
    private static final String SECRET_HRP = "AGE-SECRET-KEY-";
    private static final String RECIPIENT_HRP = "age";

    private final char[] secret;
    private final String recipient;

    private StoreIdentity(char[] secret, String recipient) {
        this.secret = secret;
        this.recipient = recipient;
    }

    /** Makes a new identity. */
    public static StoreIdentity generate() {
        try {
            KeyPair kp = new X25519KeyPairGenerator().generateKeyPair();
            return new StoreIdentity(kp.getPrivate().toString().toCharArray(), kp.getPublic().toString());
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot make an X25519 key: " + e.getMessage(), e);
        }
    }

    /**
     * Reads an identity in {@code age-keygen}'s text form: {@code #} comment lines and one
     * {@code AGE-SECRET-KEY-1…} line. The recipient is computed from the key, never taken from a comment.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if there is not exactly one valid X25519 identity
     */
    public static StoreIdentity parse(char[] text) {
        char[] found = null;
        int start = 0;
        for (int i = 0; i <= text.length; i++) {
            if (i == text.length || text[i] == '\n') {
                int end = i > start && text[i - 1] == '\r' ? i - 1 : i;
                if (end > start && text[start] != '#') {
                    if (found != null) {
                        Arrays.fill(found, '\0');
                        throw new ProofModeException(Failure.BAD_DATA, "the identity file holds more than one key");
                    }
                    found = Arrays.copyOfRange(text, start, end);
                }
                start = i + 1;
            }
        }
        if (found == null) {
            throw new ProofModeException(Failure.BAD_DATA, "the identity file holds no AGE-SECRET-KEY-1 line");
        }
        return new StoreIdentity(found, recipientOf(found));
    }

    /** Whether a file is an age file (a sealed identity) rather than an identity's text. */
    public static boolean isSealed(byte[] file) {
        byte[] magic = "age-encryption.org/v1\n".getBytes(StandardCharsets.US_ASCII);
        return file.length >= magic.length && Arrays.equals(Arrays.copyOf(file, magic.length), magic);
    }

    /**
     * Reads an identity's text given as UTF-8 bytes, as {@link #parse(char[])}; the caller clears the bytes.
     */
    public static StoreIdentity parse(byte[] utf8) {
        CharBuffer cb = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(utf8));
        char[] text = Arrays.copyOf(cb.array(), cb.limit());
        Arrays.fill(cb.array(), '\0');
        try {
            return parse(text);
        } finally {
            Arrays.fill(text, '\0');
        }
    }

    /**
     * Opens an identity file sealed with the passphrase ({@link #protect}).
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#BAD_DATA} if the file is damaged
     */
    public static StoreIdentity unlock(byte[] sealed, char[] passphrase, String what) {
        ScryptStanza.Reader r = ScryptStanza.reader(passphrase, ScryptStanza.MAX_WORK_FACTOR);
        byte[] plain = null;
        try {
            plain = AgeObjects.open(new ByteArrayInputStream(sealed), r, what);
            return parse(plain);
        } finally {
            r.clear();
            if (plain != null) {
                Arrays.fill(plain, (byte) 0);
            }
        }
    }

    /** The recipient, {@code age1…}: what storing needs. */
    public String recipient() {
        return recipient;
    }

    /**
     * The identity in {@code age-keygen}'s text form, as UTF-8 bytes; the caller clears them.
     *
     * @param created the time written in the comment
     */
    public byte[] text(Instant created) {
        String head = "# created: " + created.truncatedTo(ChronoUnit.SECONDS) + "\n# public key: " + recipient + "\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[h.length + secret.length + 1];
        System.arraycopy(h, 0, out, 0, h.length);
        for (int i = 0; i < secret.length; i++) {
            out[h.length + i] = (byte) secret[i];
        }
        out[out.length - 1] = '\n';
        return out;
    }

    /** The identity's text sealed with the passphrase: an age file with one scrypt stanza. */
    public byte[] protect(char[] passphrase, int workFactor, Instant created) {
        byte[] text = text(created);
        try {
            return AgeObjects.seal(text, List.of(ScryptStanza.writer(passphrase, workFactor, new SecureRandom())));
        } finally {
            Arrays.fill(text, (byte) 0);
        }
    }

    /** Opens objects sealed to this identity. */
    public RecipientStanzaReader opener() {
        try {
            return X25519RecipientStanzaReaderFactory.newRecipientStanzaReader(CharBuffer.wrap(secret));
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.BAD_DATA, "not a valid age identity: " + e.getMessage(), e);
        }
    }

    /**
     * A writer of the X25519 stanza for a recipient {@code age1…}.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is not a valid X25519 recipient
     */
    public static RecipientStanzaWriter sealer(String recipient) {
        try {
            return X25519Stanza.writer(recipient);
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.BAD_DATA, "not an age X25519 recipient (age1…): " + e.getMessage(), e);
        }
    }

    /** Clears the secret. */
    public void destroy() {
        Arrays.fill(secret, '\0');
    }

    private static String recipientOf(char[] secret) {
        Bech32Address a;
        try {
            a = Bech32.getDecoder().decode(CharBuffer.wrap(secret));
        } catch (RuntimeException e) {
            Arrays.fill(secret, '\0');
            throw new ProofModeException(Failure.BAD_DATA, "the identity is not an AGE-SECRET-KEY-1 key: " + e.getMessage(), e);
        }
        byte[] key = a.getData();
        try {
            if (!SECRET_HRP.equalsIgnoreCase(a.getHumanReadablePart().toString()) || key.length != 32) {
                Arrays.fill(secret, '\0');
                throw new ProofModeException(Failure.BAD_DATA, "the identity is not an AGE-SECRET-KEY-1 key");
            }
            byte[] pub = new X25519PrivateKeyParameters(key, 0).generatePublicKey().getEncoded();
            return Bech32.getEncoder().encode(RECIPIENT_HRP, pub).toString().toLowerCase(Locale.ROOT);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }
}
