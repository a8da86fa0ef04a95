// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.util.InputFiles;

/**
 * Signs C2PA claims: an ECDSA P-256 private key and its certificate chain (leaf first), COSE ES256.
 *
 * <p>Security: the key stays in memory only; {@link #toString()} does not print it.
 */
public final class C2paSigner {
    private final PrivateKey key;
    private final List<X509Certificate> chain;
    private final Provider provider;

    /**
     * Creates a signer.
     *
     * @param key an EC P-256 private key
     * @param chain the leaf certificate (matching {@code key}) first, then its issuers up to, not
     *     including, the trust anchor
     * @throws IllegalArgumentException if the key is not EC or the chain is empty or breaks C2PA's
     *     certificate profile
     */
    public C2paSigner(PrivateKey key, List<X509Certificate> chain) {
        this(key, CoseSign1.BC, chain);
        if (!(key instanceof ECPrivateKey)) {
            throw new IllegalArgumentException("C2PA signing here needs an EC P-256 key (ES256)");
        }
    }

    /**
     * Creates a signer whose key is held elsewhere: a PKCS#11 token's key, used through its provider.
     *
     * @param key an EC P-256 private key of {@code provider} (a handle; its material may never be readable)
     * @param provider the JCA provider that signs with it
     * @param chain the leaf certificate (issued to the key's public half) first, then its issuers
     * @throws IllegalArgumentException if the key is not EC or the chain is empty or breaks C2PA's profile
     */
    public C2paSigner(PrivateKey key, Provider provider, List<X509Certificate> chain) {
        this.key = Objects.requireNonNull(key, "key");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.chain = List.copyOf(chain);
        if (!"EC".equals(key.getAlgorithm()) && !"ECDSA".equals(key.getAlgorithm())) {
            throw new IllegalArgumentException("C2PA signing here needs an EC P-256 key (ES256)");
        }
        if (this.chain.isEmpty()) {
            throw new IllegalArgumentException("a signer needs its certificate");
        }
        Credentials.profileProblem(this.chain.get(0)).ifPresent(p -> {
            throw new IllegalArgumentException("certificate breaks the C2PA profile: " + p);
        });
    }

    /**
     * A signer from one PEM file that holds a certificate chain (leaf first) and its private key, such as
     * an X.509 identity for a CAWG identity assertion ({@link ManifestBuilder#identity}).
     *
     * @param passphrase decrypts an encrypted PKCS#8 key; the caller keeps and clears it
     * @throws ProofModeException with {@link Failure#INPUT_MISSING}, {@link Failure#UNSUPPORTED} (a device,
     *     FIFO or socket), {@link Failure#BAD_DATA} (over {@link InputFiles#CERTIFICATE_BYTES}, no chain, no
     *     key, not EC P-256, not the leaf's key, breaks C2PA's certificate profile) or {@link Failure#KEY_LOCKED}
     *     (encrypted, and no or the wrong passphrase)
     */
    public static C2paSigner fromPem(Path pem, Optional<Passphrase> passphrase) {
        InputFiles.read(pem, InputFiles.CERTIFICATE_BYTES, "identity PEM file"); // a regular file, bounded, before it is parsed
        List<X509Certificate> chain = Pem.certificates(pem);
        PrivateKey key;
        try (Passphrase none = Passphrase.random()) { // stands in for "no passphrase": it opens no encrypted key
            key = Pem.decryptKey(pem, passphrase.orElse(none));
        } catch (ProofModeException e) {
            if (e.failure() == Failure.KEY_LOCKED && passphrase.isEmpty()) {
                throw new ProofModeException(Failure.KEY_LOCKED, pem + ": the key is encrypted: give its passphrase with "
                        + "--passphrase-file or PROOFMODE_PASSPHRASE", e);
            }
            throw e;
        }
        C2paSigner s;
        try {
            s = new C2paSigner(key, chain);
        } catch (IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_DATA, pem + ": " + e.getMessage(), e);
        }
        byte[] probe = "identity key check".getBytes(StandardCharsets.US_ASCII);
        boolean matches;
        try {
            matches = CoseSign1.verify(s.algorithm(), chain.get(0).getPublicKey(), probe, s.sign(probe));
        } catch (GeneralSecurityException | RuntimeException e) {
            matches = false;
        }
        if (!matches) {
            throw new ProofModeException(Failure.BAD_DATA, pem + ": the private key is not the first certificate's");
        }
        return s;
    }

    /** The chain, leaf first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** The algorithm. */
    public CoseAlgorithm algorithm() {
        return CoseAlgorithm.ES256;
    }

    /** Signs bytes; returns the raw {@code r || s} signature COSE uses. */
    byte[] sign(byte[] tbs) {
        try {
            Signature s = Signature.getInstance(algorithm().jcaName(), provider);
            s.initSign(key);
            s.update(tbs);
            ASN1Sequence seq = ASN1Sequence.getInstance(s.sign());
            int n = algorithm().ecCoordinateBytes();
            byte[] out = new byte[2 * n];
            copyUnsigned(ASN1Integer.getInstance(seq.getObjectAt(0)).getPositiveValue().toByteArray(), out, 0, n);
            copyUnsigned(ASN1Integer.getInstance(seq.getObjectAt(1)).getPositiveValue().toByteArray(), out, n, n);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ES256 signing failed", e);
        }
    }

    private static void copyUnsigned(byte[] v, byte[] out, int at, int n) {
        int skip = Math.max(0, v.length - n);
        System.arraycopy(v, skip, out, at + n - (v.length - skip), v.length - skip);
    }

    @Override
    public String toString() {
        return "C2paSigner[" + chain.get(0).getSubjectX500Principal() + "]";
    }
}
