package org.proofmode.sign;

import java.io.OutputStream;
import java.security.MessageDigest;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.encodings.PKCS1Encoding;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.operator.PGPContentSigner;
import org.bouncycastle.openpgp.operator.PGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyConverter;
import org.proofmode.media.Digests;

/**
 * An OpenPGP content signer that hashes with the platform's SHA-256 (hardware-accelerated where the
 * CPU offers it) exactly once, and lets the caller take a copy of the hash state at the end of the
 * document: that copy is the document's plain SHA-256. So one read of a file gives both its digest and
 * its signature.
 *
 * <p>Supports the algorithms device keys use: RSA (PKCS#1 v1.5) and EdDSA (legacy, Ed25519).
 */
final class PrehashedContentSigner implements PGPContentSigner {
    private final MessageDigest digest;
    private final int signatureType;
    private final int keyAlgorithm;
    private final long keyId;
    private final AsymmetricKeyParameter key;
    private final OutputStream out;
    private byte[] finalDigest;

    private PrehashedContentSigner(int signatureType, PGPPrivateKey privateKey) throws PGPException {
        this.digest = Digests.newSha256();
        this.signatureType = signatureType;
        this.keyAlgorithm = privateKey.getPublicKeyPacket().getAlgorithm();
        this.keyId = privateKey.getKeyID();
        this.key = new BcPGPKeyConverter().getPrivateKey(privateKey);
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

    /** Tells whether keys of this OpenPGP algorithm can use this signer. */
    @SuppressWarnings("deprecation") // RSA_SIGN: old keys still use it
    static boolean supports(int keyAlgorithm) {
        return keyAlgorithm == PublicKeyAlgorithmTags.RSA_GENERAL
                || keyAlgorithm == PublicKeyAlgorithmTags.RSA_SIGN
                || keyAlgorithm == PublicKeyAlgorithmTags.EDDSA_LEGACY;
    }

    /** A builder that remembers the signer it made, so the caller can snapshot its hash state. */
    static final class Builder implements PGPContentSignerBuilder {
        private PrehashedContentSigner built;

        @Override
        public PGPContentSigner build(int signatureType, PGPPrivateKey privateKey) throws PGPException {
            built = new PrehashedContentSigner(signatureType, privateKey);
            return built;
        }

        /** The SHA-256 of everything written so far, without disturbing the running hash. */
        byte[] snapshotSha256() {
            try {
                return ((MessageDigest) built.digest.clone()).digest();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("SHA-256 implementation cannot be cloned", e);
            }
        }
    }

    @Override
    public OutputStream getOutputStream() {
        return out;
    }

    @Override
    public byte[] getSignature() {
        byte[] hash = getDigest();
        try {
            if (key instanceof Ed25519PrivateKeyParameters ed) {
                Ed25519Signer signer = new Ed25519Signer();
                signer.init(true, ed);
                signer.update(hash, 0, hash.length);
                return signer.generateSignature();
            }
            if (key instanceof RSAKeyParameters rsa) {
                byte[] info = new DigestInfo(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256, DERNull.INSTANCE), hash)
                        .getEncoded(ASN1Encoding.DER);
                PKCS1Encoding engine = new PKCS1Encoding(new RSABlindedEngine());
                engine.init(true, rsa);
                return engine.processBlock(info, 0, info.length);
            }
        } catch (CryptoException | java.io.IOException e) {
            throw new IllegalStateException("signing failed", e);
        }
        throw new IllegalStateException("unsupported key type " + key.getClass().getSimpleName());
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
