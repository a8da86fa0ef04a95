package org.proofmode.sign;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.proofmode.internal.Hex;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;

/**
 * Makes detached OpenPGP v4 signatures (binary document, SHA-256) while hashing the document with
 * SHA-256 in the same read, so large media are read once and memory stays flat.
 */
public final class StreamSigner {
    /** Size of the read buffer. */
    public static final int BUFFER_SIZE = 1 << 20;

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
     * Reads the stream to its end once, returning its SHA-256 and a detached signature over it.
     *
     * @param key the unlocked signing key
     * @param in the document; not closed
     * @param time the signature creation time
     * @param progress told how many bytes were read, block by block
     * @throws IOException if reading fails
     */
    public static Signed sign(SigningKey key, InputStream in, Instant time, Progress progress) throws IOException {
        Objects.requireNonNull(key, "key");
        int algo = key.signingPublicKey().getAlgorithm();
        try {
            PrehashedContentSigner.Builder fast = PrehashedContentSigner.supports(algo) ? new PrehashedContentSigner.Builder() : null;
            PGPSignatureGenerator gen = new PGPSignatureGenerator(
                    fast != null ? fast : new BcPGPContentSignerBuilder(algo, HashAlgorithmTags.SHA256),
                    key.signingPublicKey());
            gen.init(PGPSignature.BINARY_DOCUMENT, key.privateKey());
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setSignatureCreationTime(true, Date.from(time));
            hashed.setIssuerFingerprint(false, key.signingPublicKey());
            gen.setHashedSubpackets(hashed.generate());
            PGPSignatureSubpacketGenerator unhashed = new PGPSignatureSubpacketGenerator();
            unhashed.setIssuerKeyID(false, key.signingPublicKey().getKeyID());
            gen.setUnhashedSubpackets(unhashed.generate());

            MessageDigest separate = fast == null ? Digests.newSha256() : null;
            byte[] buf = new byte[BUFFER_SIZE];
            long size = 0;
            int n;
            while ((n = in.read(buf)) != -1) {
                gen.update(buf, 0, n);
                if (separate != null) {
                    separate.update(buf, 0, n);
                }
                size += n;
                progress.advanced(n);
            }
            byte[] sha = fast != null ? fast.snapshotSha256() : separate.digest();
            PGPSignature sig = gen.generate();
            return new Signed(Hex.encode(sha), size, armor(sig));
        } catch (PGPException e) {
            throw new IllegalStateException("signing failed: " + e.getMessage(), e);
        }
    }

    /** Signs bytes in memory; see {@link #sign(SigningKey, InputStream, Instant, Progress)}. */
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
