// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.encodings.PKCS1Encoding;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.operator.PGPContentVerifier;
import org.bouncycastle.openpgp.operator.PGPContentVerifierBuilder;
import org.bouncycastle.openpgp.operator.PGPContentVerifierBuilderProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyConverter;

/**
 * An OpenPGP content verifier that continues a SHA-256 computation the caller has already run over the
 * signed document (with the platform's SHA-256, hardware-accelerated where the CPU offers it): the
 * mirror of the prover's pre-hashed signer. A v4 signature hashes the document and then a trailer, so
 * the document's plain SHA-256 and the signature check come from one read: the caller hashes the media
 * once, keeps the state, and this verifier adds the trailer and checks the signature value.
 *
 * <p>Supports SHA-256 with RSA (PKCS#1 v1.5), EdDSA on Ed25519 (legacy and RFC 9580 formats) and ECDSA; {@link #supports} tells, before the document is read, whether a signature can be checked
 * this way.
 */
final class PrehashedContentVerifier implements PGPContentVerifier {
    private final MessageDigest digest;
    private final int keyAlgorithm;
    private final long keyId;
    private final AsymmetricKeyParameter key;
    private final OutputStream out;

    private PrehashedContentVerifier(MessageDigest digest, PGPPublicKey publicKey) throws PGPException {
        this.digest = digest;
        this.keyAlgorithm = publicKey.getAlgorithm();
        this.keyId = publicKey.getKeyID();
        this.key = new BcPGPKeyConverter().getPublicKey(publicKey);
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

    /**
     * Tells whether a signature of this key with this hash can be checked from a SHA-256 state.
     *
     * @param key the signing (sub)key
     * @param hashAlgorithm the signature's hash algorithm
     */
    static boolean supports(PGPPublicKey key, int hashAlgorithm) {
        if (hashAlgorithm != HashAlgorithmTags.SHA256) {
            return false;
        }
        AsymmetricKeyParameter k;
        try {
            k = new BcPGPKeyConverter().getPublicKey(key);
        } catch (PGPException | RuntimeException e) {
            return false;
        }
        return k instanceof Ed25519PublicKeyParameters || k instanceof RSAKeyParameters
                || k instanceof ECPublicKeyParameters;
    }

    /** Builds verifiers that continue a copy of the given SHA-256 state (the document already hashed). */
    record Provider(MessageDigest preloaded) implements PGPContentVerifierBuilderProvider {
        @Override
        public PGPContentVerifierBuilder get(int keyAlgorithm, int hashAlgorithm) throws PGPException {
            if (hashAlgorithm != HashAlgorithmTags.SHA256) {
                throw new PGPException("a pre-hashed check needs SHA-256, not hash algorithm " + hashAlgorithm);
            }
            return publicKey -> {
                try {
                    return new PrehashedContentVerifier((MessageDigest) preloaded.clone(), publicKey);
                } catch (CloneNotSupportedException e) {
                    throw new PGPException("this Java runtime's SHA-256 cannot be cloned", e);
                }
            };
        }
    }

    @Override
    public OutputStream getOutputStream() {
        return out;
    }

    @Override
    public boolean verify(byte[] expected) {
        byte[] hash = digest.digest();
        if (key instanceof Ed25519PublicKeyParameters ed) {
            Ed25519Signer signer = new Ed25519Signer();
            signer.init(false, ed);
            signer.update(hash, 0, hash.length);
            return signer.verifySignature(expected);
        }
        if (key instanceof ECPublicKeyParameters ec) {
            ASN1Sequence rs;
            try {
                rs = ASN1Sequence.getInstance(expected);
            } catch (IllegalArgumentException e) {
                return false;
            }
            if (rs.size() != 2) {
                return false;
            }
            BigInteger r = ASN1Integer.getInstance(rs.getObjectAt(0)).getValue();
            BigInteger s = ASN1Integer.getInstance(rs.getObjectAt(1)).getValue();
            ECDSASigner signer = new ECDSASigner();
            signer.init(false, ec);
            return signer.verifySignature(hash, r, s);
        }
        if (key instanceof RSAKeyParameters rsa) {
            PKCS1Encoding engine = new PKCS1Encoding(new RSABlindedEngine());
            engine.init(false, rsa);
            byte[] info;
            try {
                info = engine.processBlock(expected, 0, expected.length);
            } catch (InvalidCipherTextException e) {
                return false;
            }
            // As Bouncy Castle's RSA signer: the digest info with, or without, the NULL parameters.
            return Arrays.equals(info, digestInfo(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256, DERNull.INSTANCE), hash))
                    || Arrays.equals(info, digestInfo(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256), hash));
        }
        return false;
    }

    private static byte[] digestInfo(AlgorithmIdentifier id, byte[] hash) {
        try {
            return new DigestInfo(id, hash).getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException("DER encoding in memory failed", e);
        }
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
