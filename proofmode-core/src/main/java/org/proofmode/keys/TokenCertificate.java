// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.security.PublicKey;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.bcpg.CompressionAlgorithmTags;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.bcpg.sig.Features;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPKeyConverter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The OpenPGP v4 certificate of a key held in a token: its public key with the user ID
 * {@link DeviceKeys#USER_ID}, certified by a self-signature that the token makes. It is an ordinary
 * certificate: GnuPG, sqv and PGPainless read it like any other.
 */
final class TokenCertificate {
    private TokenCertificate() {}

    /**
     * Makes the certificate.
     *
     * @param publicKey the token key's public half (EC P-256 or RSA)
     * @param created the key's creation time, part of its fingerprint
     * @param signer the token key
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} for another algorithm, or what the token
     *     answered if it could not sign
     */
    static PGPPublicKeyRing make(PublicKey publicKey, Instant created, TokenSigner signer) {
        int algorithm = switch (publicKey.getAlgorithm()) {
            case "EC" -> PublicKeyAlgorithmTags.ECDSA;
            case "RSA" -> PublicKeyAlgorithmTags.RSA_GENERAL;
            default -> throw new ProofModeException(Failure.UNSUPPORTED, "the token's key is " + publicKey.getAlgorithm()
                    + "; ProofMode signs with EC P-256 or RSA keys in tokens");
        };
        try {
            PGPPublicKey pub = new JcaPGPKeyConverter().getPGPPublicKey(PublicKeyPacket.VERSION_4, algorithm, publicKey, Date.from(created));
            PGPSignatureGenerator gen = new PGPSignatureGenerator(signer.contentSigner(), pub);
            // The private key object Bouncy Castle asks for: the public packet only, since the token signs.
            gen.init(PGPSignature.POSITIVE_CERTIFICATION, new PGPPrivateKey(pub.getKeyID(), pub.getPublicKeyPacket(), null));
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setSignatureCreationTime(true, Date.from(created));
            hashed.setIssuerFingerprint(false, pub);
            hashed.setKeyFlags(true, KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
            hashed.setPrimaryUserID(false, true);
            hashed.setPreferredHashAlgorithms(false, new int[] {HashAlgorithmTags.SHA512, HashAlgorithmTags.SHA384, HashAlgorithmTags.SHA256});
            hashed.setPreferredSymmetricAlgorithms(false, new int[] {SymmetricKeyAlgorithmTags.AES_256, SymmetricKeyAlgorithmTags.AES_128});
            hashed.setPreferredCompressionAlgorithms(false, new int[] {CompressionAlgorithmTags.UNCOMPRESSED});
            hashed.setFeature(false, Features.FEATURE_MODIFICATION_DETECTION);
            gen.setHashedSubpackets(hashed.generate());
            PGPSignatureSubpacketGenerator unhashed = new PGPSignatureSubpacketGenerator();
            unhashed.setIssuerKeyID(false, pub.getKeyID());
            gen.setUnhashedSubpackets(unhashed.generate());
            PGPSignature certification = gen.generateCertification(DeviceKeys.USER_ID, pub);
            return new PGPPublicKeyRing(List.of(PGPPublicKey.addCertification(pub, DeviceKeys.USER_ID, certification)));
        } catch (PGPException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot make the token key's certificate: " + OpenPgpKeys.oneLine(e), e);
        }
    }
}
