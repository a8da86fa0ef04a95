// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.RecipientStanzaWriter;
import com.exceptionfactory.jagged.framework.stream.StandardDecryptingChannelFactory;
import com.exceptionfactory.jagged.framework.stream.StandardEncryptingChannelFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.security.GeneralSecurityException;
import java.util.List;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Objects in the age format (age-encryption.org/v1, binary, not armored), written and read as streams:
 * the payload is age's chunked STREAM (64 KiB chunks), so memory stays flat whatever the size.
 */
public final class AgeObjects {
    private AgeObjects() {}

    /**
     * Opens a stream that seals what is written to it for the recipients; closing it writes the last
     * chunk and closes {@code out}.
     *
     * @throws ProofModeException with {@link Failure#INTERNAL} if the platform lacks an algorithm
     */
    public static OutputStream sealing(OutputStream out, List<RecipientStanzaWriter> recipients) throws IOException {
        try {
            WritableByteChannel ch = new StandardEncryptingChannelFactory().newEncryptingChannel(Channels.newChannel(out), recipients);
            return Channels.newOutputStream(ch);
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot seal an age object: " + e.getMessage(), e);
        }
    }

    /** Seals bytes for the recipients. */
    public static byte[] seal(byte[] plain, List<RecipientStanzaWriter> recipients) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length + 256);
        try (OutputStream s = sealing(out, recipients)) {
            s.write(plain);
        } catch (IOException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot seal an age object: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /**
     * Opens a stream of the plain content of an age object. The header is read and its MAC checked
     * here; each payload chunk is authenticated as it is read, so a damaged object fails with an
     * {@link IOException} before any of its damaged bytes are returned.
     *
     * @param what names the object in messages
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if a passphrase-sealed object's passphrase is
     *     wrong, {@link Failure#BAD_DATA} if it is not a well-formed age object or not sealed to the identity
     */
    public static InputStream opening(InputStream in, RecipientStanzaReader identity, String what) throws IOException {
        try {
            ReadableByteChannel ch = new StandardDecryptingChannelFactory().newDecryptingChannel(Channels.newChannel(in), List.of(identity));
            return Channels.newInputStream(ch);
        } catch (GeneralSecurityException e) {
            if (identity instanceof ScryptStanza.Reader r && r.wrongPassphrase()) {
                throw new ProofModeException(Failure.KEY_LOCKED, what + ": wrong passphrase", e);
            }
            throw new ProofModeException(Failure.BAD_DATA, what + ": damaged age object (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, what + ": damaged age object (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Opens a whole (small) age object.
     *
     * @throws ProofModeException as {@link #opening}, and {@link Failure#BAD_DATA} if the payload is damaged
     */
    public static byte[] open(InputStream in, RecipientStanzaReader identity, String what) {
        try (InputStream s = opening(in, identity, what)) {
            return s.readAllBytes();
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, what + ": damaged age object (" + e.getMessage() + ")", e);
        }
    }
}
