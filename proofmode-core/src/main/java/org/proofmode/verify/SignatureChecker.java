// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.pgpainless.bouncycastle.extensions.PGPKeyRingExtensionsKt;
import org.pgpainless.decryption_verification.ConsumerOptions;
import org.pgpainless.decryption_verification.DecryptionStream;
import org.pgpainless.decryption_verification.MessageMetadata;
import org.pgpainless.decryption_verification.OpenPgpMessageInputStream;
import org.pgpainless.decryption_verification.SignatureVerification;
import org.pgpainless.exception.SignatureValidationException;
import org.pgpainless.policy.Policy;
import org.pgpainless.signature.consumer.SignatureValidator;
import org.pgpainless.signature.consumer.SignatureVerifier;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.OpenPgpPolicy;

/**
 * Checks one detached OpenPGP signature over a stream against a set of certificates, with PGPainless's
 * policy (key validity at signing time, no weak hash algorithms). The data stream is always read to its
 * end, so the caller can hash it in the same pass.
 */
final class SignatureChecker {
    /** Most bytes of one signature file. */
    static final int MAX_SIGNATURE_BYTES = 64 * 1024;

    private final List<SignerKeys.Key> keys;

    /** Checks against these certificates, each taken as it is. */
    SignatureChecker(List<PGPPublicKeyRing> certs) {
        this.keys = SignerKeys.untrusted(certs);
    }

    private SignatureChecker(SignerKeys.Key[] keys) {
        this.keys = List.of(keys);
    }

    /** Checks against these keys, each merged from its copies and judged by every copy. */
    static SignatureChecker of(List<SignerKeys.Key> keys) {
        return new SignatureChecker(keys.toArray(SignerKeys.Key[]::new));
    }

    /**
     * How a signature fared. {@link #KEY_EXPIRED} and {@link #KEY_REVOKED}: the signature may be
     * mathematically sound, but the key could not make it at the time it claims.
     */
    enum Kind { VALID, INVALID, MALFORMED, UNVERIFIABLE, KEY_EXPIRED, KEY_REVOKED }

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
        Optional<SignerKeys.Key> key = keys.stream().filter(k -> k.merged().getPublicKey(keyId) != null).findFirst();
        Optional<PGPPublicKeyRing> cert = key.map(SignerKeys.Key::merged);
        if (cert.isEmpty()) {
            drain(data);
            String issuer = String.format("%016X", keyId);
            if (keys.isEmpty()) {
                return new Outcome(Kind.UNVERIFIABLE, Optional.empty(),
                        "made by key " + issuer + ", and no public key is available to check it");
            }
            return new Outcome(Kind.INVALID, Optional.empty(),
                    "made by key " + issuer + ", which is not the proof's key");
        }
        MessageMetadata meta;
        ReadTracker tracked = new ReadTracker(data);
        try {
            DecryptionStream in = open(tracked, ConsumerOptions.get().forceNonOpenPgpData().addVerificationCert(cert.get())
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
            // PGPainless checks revocations, but not whether the key had expired when it signed.
            List<PGPPublicKeyRing> views = new ArrayList<>();
            views.add(cert.get());
            views.addAll(key.get().copies());
            Optional<KeyState.Finding> problem = KeyState.judge(views, keyId, sig.getCreationTime());
            if (problem.isPresent()) {
                return keyProblem(problem.get(), cert);
            }
            return new Outcome(Kind.VALID, cert, "good signature by " + OpenPgpKeys.fingerprint(cert.get().getPublicKey()));
        }
        List<String> reasons = new ArrayList<>();
        meta.getRejectedDetachedSignatures().forEach(f -> reasons.add(oneLine(f.getValidationException())));
        Optional<KeyState.Finding> revoked = CertificateFacts.revoked(cert.get(), keyId, sig.getCreationTime());
        if (revoked.isPresent()) {
            return keyProblem(revoked.get(), cert);
        }
        return new Outcome(Kind.INVALID, cert, reasons.isEmpty() ? "does not verify" : "does not verify (" + String.join("; ", reasons) + ")");
    }

    private static Outcome keyProblem(KeyState.Finding f, Optional<PGPPublicKeyRing> cert) {
        Kind kind = f.problem() == KeyState.Problem.EXPIRED ? Kind.KEY_EXPIRED : Kind.KEY_REVOKED;
        return new Outcome(kind, cert, "made by " + OpenPgpKeys.fingerprint(cert.orElseThrow().getPublicKey()) + ", but " + f.message());
    }

    /**
     * Prepares the check of a signature over a document the caller hashes itself, when that is possible:
     * one v4 binary-document signature with SHA-256, by a key of this checker with an algorithm
     * {@link PrehashedContentVerifier} supports. Then the document is read once, by the caller, for its
     * SHA-256 and this signature. Empty otherwise (a malformed signature, an unknown key, another hash,
     * a text signature): the caller then uses {@link #check(byte[], InputStream)}, which reports those.
     */
    Optional<Prehashed> prehashed(byte[] signature) {
        List<PGPSignature> sigs;
        try {
            sigs = parse(signature);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (sigs.size() != 1) {
            return Optional.empty();
        }
        PGPSignature sig = sigs.get(0);
        if (sig.getVersion() != 4 || sig.getSignatureType() != PGPSignature.BINARY_DOCUMENT) {
            return Optional.empty();
        }
        try {
            long keyId = sig.getKeyID();
            Optional<SignerKeys.Key> signer = keys.stream().filter(k -> k.merged().getPublicKey(keyId) != null).findFirst();
            if (signer.isEmpty()) {
                return Optional.empty();
            }
            PGPPublicKeyRing cert = signer.get().merged();
            PGPPublicKey key = PGPKeyRingExtensionsKt.getPublicKeyFor(cert, sig);
            if (key == null || !PrehashedContentVerifier.supports(key, sig.getHashAlgorithm())) {
                return Optional.empty();
            }
            return Optional.of(new Prehashed(sig, signer.get(), key));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A signature ready to be checked against the SHA-256 state of its document, with the same policy as
     * {@link #check(byte[], InputStream)}: the signature's creation time, the key's validity at that time
     * (expiry, revocation, binding), PGPainless's hash and key-size policy, then the signature value.
     */
    static final class Prehashed {
        private final PGPSignature sig;
        private final SignerKeys.Key signer;
        private final PGPPublicKeyRing cert;
        private final PGPPublicKey key;

        private Prehashed(PGPSignature sig, SignerKeys.Key signer, PGPPublicKey key) {
            this.sig = sig;
            this.signer = signer;
            this.cert = signer.merged();
            this.key = key;
        }

        /**
         * Checks the signature.
         *
         * @param document the SHA-256 state after the whole document; copied, not changed
         */
        Outcome check(MessageDigest document) {
            try {
                sig.init(new PrehashedContentVerifier.Provider(document), key);
                SignatureValidator.signatureWasCreatedInBounds(null, null).verify(sig);
                // What PGPainless's validateCertificateAndVerifyInitializedSignature does, with the
                // certificate's part remembered for the next signature by the same key at the same time.
                Policy policy = OpenPgpPolicy.standard();
                CertificateFacts.validateCertificate(sig, cert, policy);
                SignatureVerifier.verifyInitializedSignature(sig, key, policy, sig.getCreationTime());
                // As in the streamed check: PGPainless checks revocations, not whether the key had expired.
                List<PGPPublicKeyRing> views = new ArrayList<>();
                views.add(cert);
                views.addAll(signer.copies());
                Optional<KeyState.Finding> problem = KeyState.judge(views, sig.getKeyID(), sig.getCreationTime());
                if (problem.isPresent()) {
                    return keyProblem(problem.get(), Optional.of(cert));
                }
                return new Outcome(Kind.VALID, Optional.of(cert), "good signature by " + OpenPgpKeys.fingerprint(cert.getPublicKey()));
            } catch (SignatureValidationException e) {
                Optional<KeyState.Finding> revoked = CertificateFacts.revoked(cert, sig.getKeyID(), sig.getCreationTime());
                if (revoked.isPresent()) {
                    return keyProblem(revoked.get(), Optional.of(cert));
                }
                return new Outcome(Kind.INVALID, Optional.of(cert), "does not verify (" + oneLine(e) + ")");
            } catch (PGPException e) {
                return new Outcome(Kind.INVALID, Optional.of(cert), "does not verify (" + oneLine(e) + ")");
            } catch (RuntimeException e) {
                return new Outcome(Kind.MALFORMED, Optional.of(cert), "not a usable OpenPGP signature (" + oneLine(e) + ")");
            }
        }
    }

    /**
     * PGPainless's reader for a detached-signature check, under the project's policy. Declares what
     * {@code PGPainless.decryptAndOrVerify()} declares: the reader, written in Kotlin, declares neither.
     */
    private static DecryptionStream open(InputStream data, ConsumerOptions options) throws PGPException, IOException {
        return OpenPgpMessageInputStream.create(data, options, OpenPgpPolicy.standard());
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
    private static final class ReadTracker extends FilterInputStream {
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
