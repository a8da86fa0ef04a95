// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.FileKey;
import com.exceptionfactory.jagged.RecipientStanza;
import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.RecipientStanzaWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * The age scrypt recipient stanza (age-encryption.org/v1, "The scrypt recipient type"): the file key
 * sealed with a key derived from a passphrase, so that {@code age -d} opens the file with the passphrase
 * alone.
 *
 * <pre>
 * -&gt; scrypt &lt;salt: 16 bytes, base64 without padding&gt; &lt;log2 of N, decimal&gt;
 * &lt;ChaCha20-Poly1305(key = scrypt(passphrase, "age-encryption.org/v1/scrypt" || salt, N, r=8, p=1, 32),
 *                   nonce = 12 zero bytes, file key)&gt;
 * </pre>
 *
 * <p>Written here on Bouncy Castle's {@code SCrypt} and {@code ChaCha20Poly1305} behind jagged's stanza
 * interfaces because jagged's own scrypt module is not published on Maven Central. As the
 * specification requires, a reader refuses a header where a scrypt stanza is not the only one, a salt
 * that is not 16 bytes, a work factor that is not a canonical decimal or above its limit, and a body that
 * is not 32 bytes.
 */
public final class ScryptStanza {
    /** The stanza's type, its first argument. */
    public static final String TYPE = "scrypt";
    /** The work factor (log2 of scrypt's N) that {@code age} itself writes: about a second on a laptop. */
    public static final int DEFAULT_WORK_FACTOR = 18;
    /** The highest work factor read, as {@code age}'s default: 2^22 takes 4 GiB·s, a bound against hostile files. */
    public static final int MAX_WORK_FACTOR = 22;

    private static final byte[] LABEL = "age-encryption.org/v1/scrypt".getBytes(StandardCharsets.US_ASCII);
    private static final int SALT_BYTES = 16;
    private static final int FILE_KEY_BYTES = 16;
    private static final int TAG_BYTES = Stanzas.TAG_BYTES;
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();

    private ScryptStanza() {}

    /**
     * A writer of one scrypt stanza for the passphrase. The passphrase is copied; the caller clears its own.
     *
     * @param workFactor log2 of scrypt's N, 1 to {@link #MAX_WORK_FACTOR}
     */
    public static RecipientStanzaWriter writer(char[] passphrase, int workFactor, SecureRandom random) {
        if (workFactor < 1 || workFactor > MAX_WORK_FACTOR) {
            throw new IllegalArgumentException("work factor out of range: " + workFactor);
        }
        char[] p = passphrase.clone();
        return fileKey -> {
            byte[] salt = new byte[SALT_BYTES];
            random.nextBytes(salt);
            byte[] key = wrapKey(p, salt, workFactor);
            try {
                byte[] body = Stanzas.wrap(key, fileKey.getEncoded(), true);
                return List.of(new Stanzas.Stanza(TYPE, List.of(B64.encodeToString(salt), Integer.toString(workFactor)), body));
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        };
    }

    /**
     * A reader that opens a scrypt stanza with the passphrase (copied; the caller clears its own).
     *
     * @param maxWorkFactor the highest work factor tried; a higher one is refused before any work
     */
    public static Reader reader(char[] passphrase, int maxWorkFactor) {
        return new Reader(passphrase.clone(), maxWorkFactor);
    }

    /** Opens the scrypt stanza of a header; remembers whether the passphrase was what failed. */
    public static final class Reader implements RecipientStanzaReader {
        private final char[] passphrase;
        private final int maxWorkFactor;
        private volatile boolean wrongPassphrase;

        private Reader(char[] passphrase, int maxWorkFactor) {
            this.passphrase = passphrase;
            this.maxWorkFactor = maxWorkFactor;
        }

        /** Whether the last header had a well-formed scrypt stanza that this passphrase did not open. */
        public boolean wrongPassphrase() {
            return wrongPassphrase;
        }

        @Override
        public FileKey getFileKey(Iterable<RecipientStanza> stanzas) throws GeneralSecurityException {
            Objects.requireNonNull(stanzas, "stanzas");
            RecipientStanza scrypt = null;
            int count = 0;
            for (RecipientStanza s : stanzas) {
                count++;
                if (TYPE.equals(s.getType())) {
                    scrypt = s;
                }
            }
            if (scrypt == null) {
                throw new GeneralSecurityException("no scrypt stanza (this file is not sealed with a passphrase)");
            }
            if (count != 1) {
                throw new GeneralSecurityException("a scrypt stanza must be the only one in the header");
            }
            List<String> args = scrypt.getArguments();
            if (args.size() != 2) {
                throw new GeneralSecurityException("scrypt stanza: 2 arguments expected, not " + args.size());
            }
            byte[] salt = canonicalBase64(args.get(0));
            if (salt.length != SALT_BYTES) {
                throw new GeneralSecurityException("scrypt stanza: the salt is not 16 bytes");
            }
            String wf = args.get(1);
            if (!wf.matches("[1-9][0-9]?")) {
                throw new GeneralSecurityException("scrypt stanza: bad work factor '" + wf + "'");
            }
            int workFactor = Integer.parseInt(wf);
            if (workFactor > maxWorkFactor) {
                throw new GeneralSecurityException("scrypt stanza: work factor " + workFactor + " above the limit " + maxWorkFactor);
            }
            byte[] body = scrypt.getBody();
            if (body.length != FILE_KEY_BYTES + TAG_BYTES) {
                throw new GeneralSecurityException("scrypt stanza: the body is not 32 bytes");
            }
            byte[] key = wrapKey(passphrase, salt, workFactor);
            try {
                byte[] fileKey = Stanzas.wrap(key, body, false);
                wrongPassphrase = false;
                return new FileKey(fileKey);
            } catch (GeneralSecurityException e) {
                wrongPassphrase = true;
                throw new GeneralSecurityException("wrong passphrase", e);
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        }

        /** Clears the reader's copy of the passphrase. */
        public void clear() {
            Arrays.fill(passphrase, '\0');
        }
    }

    private static byte[] canonicalBase64(String s) throws GeneralSecurityException {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("scrypt stanza: the salt is not base64", e);
        }
        if (!B64.encodeToString(b).equals(s)) {
            throw new GeneralSecurityException("scrypt stanza: the salt is not canonical base64 without padding");
        }
        return b;
    }

    private static byte[] wrapKey(char[] passphrase, byte[] salt, int workFactor) {
        ByteBuffer utf8 = StandardCharsets.UTF_8.encode(CharBuffer.wrap(passphrase));
        byte[] p = new byte[utf8.remaining()];
        utf8.get(p);
        Arrays.fill(utf8.array(), (byte) 0);
        byte[] s = new byte[LABEL.length + salt.length];
        System.arraycopy(LABEL, 0, s, 0, LABEL.length);
        System.arraycopy(salt, 0, s, LABEL.length, salt.length);
        try {
            return SCrypt.generate(p, s, 1 << workFactor, 8, 1, 32);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }
}
