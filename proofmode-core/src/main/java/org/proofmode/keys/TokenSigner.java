// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.operator.PGPContentSigner;
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
            s.update(ec ? sha256 : new DigestInfo(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256, DERNull.INSTANCE), sha256)
                    .getEncoded(ASN1Encoding.DER));
            return s.sign();
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            throw Pkcs11Token.failure(e, "the token could not sign");
        }
    }

    @Override
    public String toString() {
        return "TokenSigner[" + device + "]";
    }

    private final class Content implements PGPContentSigner {
        private final MessageDigest digest;
        private final int signatureType;
        private final int keyAlgorithm;
        private final long keyId;
        private final OutputStream out;
        private byte[] finalDigest;

        Content(MessageDigest digest, int signatureType, PGPPrivateKey privateKey) {
            this.digest = digest;
            this.signatureType = signatureType;
            this.keyAlgorithm = privateKey.getPublicKeyPacket().getAlgorithm();
            this.keyId = privateKey.getKeyID();
            this.out = new OutputStream() {
                @Override
                public void write(int b) {
                    digest.update((byte) b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    digest.update(b, off, len);
                }
            };
        }

        @Override
        public OutputStream getOutputStream() {
            return out;
        }

        /**
         * {@inheritDoc}
         *
         * @throws ProofModeException if the token cannot sign (removed, logged out, key deleted)
         */
        @Override
        public byte[] getSignature() {
            return signDigest(getDigest(), keyAlgorithm);
        }

        @Override
        public byte[] getDigest() {
            if (finalDigest == null) {
                finalDigest = digest.digest();
            }
            return finalDigest.clone();
        }

        @Override
        public int getType() {
            return signatureType;
        }

        @Override
        public int getHashAlgorithm() {
            return HashAlgorithmTags.SHA256;
        }

        @Override
        public int getKeyAlgorithm() {
            return keyAlgorithm;
        }

        @Override
        public long getKeyID() {
            return keyId;
        }
    }
}
