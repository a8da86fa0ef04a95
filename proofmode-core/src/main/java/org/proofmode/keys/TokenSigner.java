// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Objects;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.operator.PGPContentSignerBuilder;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;

/**
 * Signs with a private key held in a PKCS#11 token: the document's SHA-256 is computed here, and the
 * token signs the digest (ECDSA over the digest, {@code NONEwithECDSA}; RSA PKCS#1 v1.5 over its
 * DigestInfo, {@code NONEwithRSA}). Safe for use by several threads: each signature takes its own
 * {@link Signature} and the provider its own token session.
 *
 * <p>Security: the private key is a handle to an object inside the token; no key material is in memory.
 */
public final class TokenSigner {
    private final Provider provider;
    private final PrivateKey key;
    private final PublicKey publicKey;
    private final String device;

    TokenSigner(Provider provider, KeyPair pair, String device) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.key = Objects.requireNonNull(pair.getPrivate(), "key");
        this.publicKey = Objects.requireNonNull(pair.getPublic(), "publicKey");
        this.device = Objects.requireNonNull(device, "device");
    }

    /** The token's maker and model, e.g. {@code SoftHSM project SoftHSM v2}. */
    public String device() {
        return device;
    }

    /** The handle of the token's private key (no key material), for JCA signatures in {@link #provider()}. */
    public PrivateKey privateKey() {
        return key;
    }

    /** The key's public half (EC or RSA), as a plain JCA key. */
    public PublicKey publicKey() {
        return publicKey;
    }

    /** The PKCS#11 provider of the logged-in token. */
    public Provider provider() {
        return provider;
    }

    /**
     * Builds OpenPGP content signers (SHA-256) that continue {@code preloaded}, a SHA-256 state over the
     * document so far (a fresh one for a document not hashed yet), and have the token sign the digest.
     */
    public PGPContentSignerBuilder contentSigner(MessageDigest preloaded) {
        Objects.requireNonNull(preloaded, "preloaded");
        return (signatureType, privateKey) -> new Content(preloaded, signatureType, privateKey);
    }

    /** A content signer for a document not hashed yet (self-signatures). */
    PGPContentSignerBuilder contentSigner() {
        return contentSigner(Digests.newSha256());
    }

    /** Has the token sign a SHA-256 digest; returns the signature as OpenPGP takes it (DER for ECDSA). */
    byte[] signDigest(byte[] sha256, int keyAlgorithm) {
        try {
            boolean ec = keyAlgorithm == PublicKeyAlgorithmTags.ECDSA;
            Signature s = Signature.getInstance(ec ? "NONEwithECDSA" : "NONEwithRSA", provider);
            s.initSign(key);
            s.update(ec ? sha256 : Sha256ContentSigner.digestInfo(sha256));
            return s.sign();
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            throw Pkcs11Token.failure(e, "the token could not sign");
        }
    }

    @Override
    public String toString() {
        return "TokenSigner[" + device + "]";
    }

    private final class Content extends Sha256ContentSigner {
        Content(MessageDigest digest, int signatureType, PGPPrivateKey privateKey) {
            super(digest, signatureType, privateKey);
        }

        /**
         * {@inheritDoc}
         *
         * @throws ProofModeException if the token cannot sign (removed, logged out, key deleted)
         */
        @Override
        protected byte[] sign(byte[] sha256) {
            return signDigest(sha256, getKeyAlgorithm());
        }
    }
}
