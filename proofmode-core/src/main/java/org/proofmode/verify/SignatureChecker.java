// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.pgpainless.PGPainless;
import org.pgpainless.decryption_verification.ConsumerOptions;
import org.pgpainless.decryption_verification.DecryptionStream;
import org.pgpainless.decryption_verification.MessageMetadata;
import org.pgpainless.decryption_verification.SignatureVerification;
import org.proofmode.keys.OpenPgpKeys;

/**
 * Checks one detached OpenPGP signature over a stream against a set of certificates, with PGPainless's
 * policy (key validity at signing time, no weak hash algorithms). The data stream is always read to its
 * end, so the caller can hash it in the same pass.
 */
final class SignatureChecker {
    /** Most bytes of one signature file. */
    static final int MAX_SIGNATURE_BYTES = 64 * 1024;

    private final List<PGPPublicKeyRing> certs;

    SignatureChecker(List<PGPPublicKeyRing> certs) {
        this.certs = List.copyOf(certs);
    }

    enum Kind { VALID, INVALID, MALFORMED, UNVERIFIABLE }

    /** The outcome of checking one signature. */
    record Outcome(Kind kind, Optional<PGPPublicKeyRing> signer, String message) {
        Outcome {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(signer);
            Objects.requireNonNull(message);
        }
    }

    /**
     * Checks a signature. Reads {@code data} to its end in every case.
     *
     * @throws IOException if reading the data fails
     */
    Outcome check(byte[] signature, InputStream data) throws IOException {
        List<PGPSignature> sigs;
        try {
            sigs = parse(signature);
        } catch (IOException | RuntimeException e) {
            drain(data);
            return new Outcome(Kind.MALFORMED, Optional.empty(), "not an OpenPGP signature (" + oneLine(e) + ")");
        }
        try {
            return check(sigs.get(0), sigs, data);
        } catch (RuntimeException e) {
            // BouncyCastle and PGPainless throw unchecked exceptions for packets they cannot make sense of
            // (unknown algorithms or versions, malformed values): the signature is bad, not the run.
            drain(data);
            return new Outcome(Kind.MALFORMED, Optional.empty(), "not a usable OpenPGP signature (" + oneLine(e) + ")");
        }
    }

    private Outcome check(PGPSignature sig, List<PGPSignature> sigs, InputStream data) throws IOException {
        long keyId = sig.getKeyID();
        Optional<PGPPublicKeyRing> cert = certs.stream().filter(c -> c.getPublicKey(keyId) != null).findFirst();
        if (cert.isEmpty()) {
            drain(data);
            String issuer = String.format("%016X", keyId);
            if (certs.isEmpty()) {
                return new Outcome(Kind.UNVERIFIABLE, Optional.empty(),
                        "made by key " + issuer + ", and no public key is available to check it");
            }
            return new Outcome(Kind.INVALID, Optional.empty(),
                    "made by key " + issuer + ", which is not the proof's key");
        }
        MessageMetadata meta;
        ReadTracker tracked = new ReadTracker(data);
        try {
            DecryptionStream in = PGPainless.decryptAndOrVerify().onInputStream(tracked).withOptions(
                    ConsumerOptions.get().forceNonOpenPgpData().addVerificationCert(cert.get())
                            .addVerificationOfDetachedSignatures(sigs));
            drain(in);
            in.close();
            meta = in.getMetadata();
        } catch (PGPException e) {
            drain(data);
            return new Outcome(Kind.INVALID, cert, "does not verify (" + oneLine(e) + ")");
        } catch (IOException e) {
            if (tracked.failure != null) {
                throw tracked.failure;
            }
            // The data was read fine; the signature packet is what could not be processed.
            drain(data);
            return new Outcome(Kind.MALFORMED, cert, "not a usable OpenPGP signature (" + oneLine(e) + ")");
        }
        List<SignatureVerification> good = meta.getVerifiedDetachedSignatures();
        if (!good.isEmpty()) {
            return new Outcome(Kind.VALID, cert, "good signature by " + OpenPgpKeys.fingerprint(cert.get().getPublicKey()));
        }
        List<String> reasons = new ArrayList<>();
        meta.getRejectedDetachedSignatures().forEach(f -> reasons.add(oneLine(f.getValidationException())));
        return new Outcome(Kind.INVALID, cert, reasons.isEmpty() ? "does not verify" : "does not verify (" + String.join("; ", reasons) + ")");
    }

    private static List<PGPSignature> parse(byte[] bytes) throws IOException {
        if (bytes.length > MAX_SIGNATURE_BYTES) {
            throw new IOException("larger than " + MAX_SIGNATURE_BYTES + " bytes");
        }
        List<PGPSignature> out = new ArrayList<>();
        try (InputStream dec = PGPUtil.getDecoderStream(new ByteArrayInputStream(bytes))) {
            BcPGPObjectFactory f = new BcPGPObjectFactory(dec);
            Object o;
            while ((o = f.nextObject()) != null) {
                if (!(o instanceof PGPSignatureList list)) {
                    throw new IOException("contains " + o.getClass().getSimpleName() + " instead of a signature");
                }
                list.forEach(out::add);
            }
        }
        if (out.isEmpty()) {
            throw new IOException("no signature packet");
        }
        return out;
    }

    /**
     * Remembers whether reading the signed data itself failed, as opposed to processing the signature;
     * and keeps the data open when the verifier gives up early, so the caller can finish hashing it.
     */
    private static final class ReadTracker extends java.io.FilterInputStream {
        IOException failure;

        ReadTracker(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // The caller owns the data stream.
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }

    static void drain(InputStream in) throws IOException {
        in.transferTo(OutputStream.nullOutputStream());
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        return m.replaceAll("\\s+", " ").trim();
    }
}
