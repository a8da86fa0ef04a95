// SPDX-License-Identifier: Apache-2.0
package org.proofmode.sign;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.PGPContentSignerBuilder;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;

/**
 * Makes detached OpenPGP v4 signatures (binary document, SHA-256) from one read of the document: the
 * read gives the document's SHA-256, and the signature is finished from the same hash state. The read
 * does not need the key, so a caller can hash large media while the key is still being unlocked.
 */
public final class StreamSigner {
    /** Size of the read buffer. */
    public static final int BUFFER_SIZE = 1 << 16;

    /** One direct read buffer per thread, reused across files. */
    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(BUFFER_SIZE));

    private StreamSigner() {}

    /** Receives progress as bytes are read. */
    @FunctionalInterface
    public interface Progress {
        /** Called after each block with the number of bytes just read. */
        void advanced(long bytes);

        /** A listener that ignores progress. */
        Progress NONE = bytes -> {};
    }

    /**
     * Reads the stream to its end once, with bounded memory.
     *
     * @param in the document; not closed
     * @param progress told how many bytes were read, block by block
     * @throws IOException if reading fails
     */
    public static Prehash digest(InputStream in, Progress progress) throws IOException {
        return digest(Channels.newChannel(in), progress);
    }

    /**
     * Reads the channel to its end once into a reused direct buffer: one copy from the operating
     * system, and memory that does not grow with the file. The hashing thread reads for itself: a second
     * thread that reads ahead into a ring of buffers costs more processor time than it saves (the copies
     * land outside this core's cache), and on two cores it takes time from everything else a command does.
     *
     * @param in the document; not closed
     * @param progress told how many bytes were read, block by block
     * @throws IOException if reading fails
     */
    public static Prehash digest(ReadableByteChannel in, Progress progress) throws IOException {
        MessageDigest md = Digests.newSha256();
        ByteBuffer buf = BUFFERS.get();
        buf.clear();
        long size = 0;
        int n;
        while ((n = in.read(buf)) != -1) {
            buf.flip();
            md.update(buf);
            buf.clear();
            size += n;
            progress.advanced(n);
        }
        return new Prehash(md, size);
    }

    /**
     * Signs a hashed document.
     *
     * @param key the unlocked signing key
     * @param document the hashed document
     * @param time the signature creation time
     * @return the document's SHA-256 and the armored detached signature
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} for a key algorithm we cannot sign with
     */
    public static Signed sign(SigningKey key, Prehash document, Instant time) {
        Objects.requireNonNull(key, "key");
        if (!OpenPgpKeys.canSign(key.signingPublicKey())) {
            throw new ProofModeException(Failure.UNSUPPORTED, "cannot sign with a "
                    + OpenPgpKeys.algorithmName(key.signingPublicKey()) + " key; use ed25519, rsa, or ecdsa on P-256");
        }
        try {
            PGPContentSignerBuilder signer = key.token().isPresent()
                    ? key.token().get().contentSigner(document.copy())
                    : new PrehashedContentSigner.Builder(document.copy());
            PGPSignatureGenerator gen = new PGPSignatureGenerator(signer, key.signingPublicKey());
            gen.init(PGPSignature.BINARY_DOCUMENT, key.privateKey());
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setSignatureCreationTime(true, Date.from(time));
            hashed.setIssuerFingerprint(false, key.signingPublicKey());
            gen.setHashedSubpackets(hashed.generate());
            PGPSignatureSubpacketGenerator unhashed = new PGPSignatureSubpacketGenerator();
            unhashed.setIssuerKeyID(false, key.signingPublicKey().getKeyID());
            gen.setUnhashedSubpackets(unhashed.generate());
            return new Signed(document.sha256(), document.size(), armor(gen.generate()));
        } catch (PGPException | IOException e) {
            throw new IllegalStateException("signing failed: " + e.getMessage(), e);
        }
    }

    /** Hashes and signs a stream in one read; see {@link #digest} and {@link #sign(SigningKey, Prehash, Instant)}. */
    public static Signed sign(SigningKey key, InputStream in, Instant time, Progress progress) throws IOException {
        return sign(key, digest(in, progress), time);
    }

    /** Signs bytes in memory. */
    public static Signed sign(SigningKey key, byte[] document, Instant time) {
        try {
            return sign(key, new ByteArrayInputStream(document), time, Progress.NONE);
        } catch (IOException e) {
            throw new IllegalStateException("reading from memory failed", e);
        }
    }

    /** Armors a signature the way GnuPG does ({@code -----BEGIN PGP SIGNATURE-----}). */
    public static String armor(PGPSignature sig) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream armored = ArmoredOutputStream.builder().clearHeaders().build(bytes)) {
            sig.encode(armored);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }
}
