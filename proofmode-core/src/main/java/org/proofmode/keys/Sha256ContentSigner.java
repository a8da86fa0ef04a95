// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.operator.PGPContentSigner;

/**
 * An OpenPGP content signer over SHA-256 that continues a digest state the caller may already have run
 * over the document (one pass gives the media's SHA-256 and its signature); a subclass signs the final
 * digest: with a key in memory ({@code sign.PrehashedContentSigner}) or in a token ({@link TokenSigner}).
 */
public abstract class Sha256ContentSigner implements PGPContentSigner {
    private final MessageDigest digest;
    private final int signatureType;
    private final int keyAlgorithm;
    private final long keyId;
    private final OutputStream out;
    private byte[] finalDigest;

    /**
     * @param digest the SHA-256 state to continue (a fresh one for a document not hashed yet)
     * @param signatureType the OpenPGP signature type
     * @param privateKey the key's packet: its algorithm and key ID
     */
    protected Sha256ContentSigner(MessageDigest digest, int signatureType, PGPPrivateKey privateKey) {
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

    /** Signs the final SHA-256 digest; returns the signature as OpenPGP takes it (DER for ECDSA). */
    protected abstract byte[] sign(byte[] sha256);

    /** The DER {@code DigestInfo} of a SHA-256 digest: what RSA PKCS#1 v1.5 signs. */
    protected static byte[] digestInfo(byte[] sha256) throws IOException {
        return new DigestInfo(new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256, DERNull.INSTANCE), sha256)
                .getEncoded(ASN1Encoding.DER);
    }

    @Override
    public final OutputStream getOutputStream() {
        return out;
    }

    @Override
    public final byte[] getSignature() {
        return sign(getDigest());
    }

    @Override
    public final byte[] getDigest() {
        if (finalDigest == null) {
            finalDigest = digest.digest();
        }
        return finalDigest.clone();
    }

    @Override
    public final int getType() {
        return signatureType;
    }

    @Override
    public final int getHashAlgorithm() {
        return HashAlgorithmTags.SHA256;
    }

    @Override
    public final int getKeyAlgorithm() {
        return keyAlgorithm;
    }

    @Override
    public final long getKeyID() {
        return keyId;
    }
}
