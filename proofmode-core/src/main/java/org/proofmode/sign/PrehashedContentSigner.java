// SPDX-License-Identifier: Apache-2.0
package org.proofmode.sign;

import java.io.IOException;
import java.math.BigInteger;
import java.security.MessageDigest;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.encodings.PKCS1Encoding;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.operator.PGPContentSigner;
import org.bouncycastle.openpgp.operator.PGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyConverter;
import org.proofmode.keys.Sha256ContentSigner;

/**
 * An OpenPGP content signer that continues a SHA-256 computation the caller has already run over the
 * document (with the platform's SHA-256, hardware-accelerated where the CPU offers it). A v4 signature
 * hashes the document and then a trailer, so the document's plain SHA-256 and its signature come from
 * one pass: the caller hashes the media once, keeps a copy of the state as the file hash, and lets this
 * signer add the trailer and sign.
 *
 * <p>Supports RSA (PKCS#1 v1.5), EdDSA on Ed25519 (legacy and RFC 9580 formats) and ECDSA on P-256.
 */
final class PrehashedContentSigner extends Sha256ContentSigner {
    private final AsymmetricKeyParameter key;

    private PrehashedContentSigner(MessageDigest digest, int signatureType, PGPPrivateKey privateKey) throws PGPException {
        super(digest, signatureType, privateKey);
        this.key = new BcPGPKeyConverter().getPrivateKey(privateKey);
    }

    /** Builds signers that continue the given SHA-256 state (the document already hashed). */
    record Builder(MessageDigest preloaded) implements PGPContentSignerBuilder {
        @Override
        public PGPContentSigner build(int signatureType, PGPPrivateKey privateKey) throws PGPException {
            return new PrehashedContentSigner(preloaded, signatureType, privateKey);
        }
    }

    @Override
    protected byte[] sign(byte[] hash) {
        try {
            if (key instanceof Ed25519PrivateKeyParameters ed) {
                Ed25519Signer signer = new Ed25519Signer();
                signer.init(true, ed);
                signer.update(hash, 0, hash.length);
                return signer.generateSignature();
            }
            if (key instanceof ECPrivateKeyParameters ec) {
                ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
                signer.init(true, ec);
                BigInteger[] rs = signer.generateSignature(hash);
                return new DERSequence(new ASN1Integer[] {new ASN1Integer(rs[0]), new ASN1Integer(rs[1])})
                        .getEncoded(ASN1Encoding.DER);
            }
            if (key instanceof RSAKeyParameters rsa) {
                byte[] info = digestInfo(hash);
                PKCS1Encoding engine = new PKCS1Encoding(new RSABlindedEngine());
                engine.init(true, rsa);
                return engine.processBlock(info, 0, info.length);
            }
        } catch (CryptoException | IOException e) {
            throw new IllegalStateException("signing failed", e);
        }
        throw new IllegalStateException("unsupported key type " + key.getClass().getSimpleName());
    }
}
