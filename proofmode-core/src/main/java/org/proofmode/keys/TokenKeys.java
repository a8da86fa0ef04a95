// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPKeyConverter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Device keys held in a PKCS#11 token: made there, adopted from there, and unlocked (a login with the
 * token's PIN) for signing. What the home keeps of them is their certificate and a {@link TokenReference}.
 *
 * <p>Failures: {@link Failure#INPUT_MISSING} for a missing module, an absent token or a key no longer in
 * the token; {@link Failure#KEY_LOCKED} for a wrong or locked PIN; {@link Failure#BAD_DATA} for a file
 * that is no PKCS#11 module; {@link Failure#UNSUPPORTED} for Ed25519 or what the token cannot do;
 * {@link Failure#IO} for a full or failing token.
 */
final class TokenKeys {
    /** What a key made or adopted in a token gives the home. */
    record Made(TokenReference reference, PGPPublicKeyRing certificate) {}

    private TokenKeys() {}

    /**
     * Refuses a type no token key can have here.
     *
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} for Ed25519
     */
    static void requireTokenType(KeyType type) {
        if (type == KeyType.ED25519) {
            throw new ProofModeException(Failure.UNSUPPORTED, "ed25519 keys cannot be made in a PKCS#11 token here: "
                    + "Java's PKCS#11 provider cannot sign with EdDSA; use --key-type p256 (the default) or rsa3072");
        }
    }

    static Made create(Path module, Optional<String> label, KeyType type, Passphrase pin) {
        requireTokenType(type);
        String keyId = "proofmode-" + UUID.randomUUID().toString().substring(0, 8);
        Pkcs11Token token = Pkcs11Token.login(module, label, Optional.empty(), pin, Optional.of(keyId));
        Instant created = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        KeyPair pair = token.generate(type, keyId, created);
        try {
            return made(token, keyId, pair, created);
        } catch (RuntimeException e) {
            token.delete(keyId);
            throw e;
        }
    }

    static Made use(Path module, Optional<String> label, String keyId, Passphrase pin) {
        Pkcs11Token token = Pkcs11Token.login(module, label, Optional.empty(), pin);
        if (!token.holds(keyId)) {
            // made by another tool (pkcs11-tool --keypairgen): no certificate yet, so the provider cannot see it
            token.certify(keyId, Instant.now().truncatedTo(ChronoUnit.SECONDS), pin);
        }
        KeyPair pair = token.key(keyId);
        return made(token, keyId, pair, created(token, keyId));
    }

    private static Made made(Pkcs11Token token, String keyId, KeyPair pair, Instant created) {
        TokenSigner signer = new TokenSigner(token.provider(), pair, token.token().device());
        PGPPublicKeyRing cert = TokenCertificate.make(pair.getPublic(), created, signer);
        TokenSlots.Token t = token.token();
        TokenReference ref = new TokenReference(token.module(), t.label(), t.serial(), keyId,
                OpenPgpKeys.fingerprint(cert.getPublicKey()), t.device());
        return new Made(ref, cert);
    }

    /** The key's creation time, part of its OpenPGP fingerprint: when its certificate in the token begins. */
    private static Instant created(Pkcs11Token token, String keyId) {
        Certificate c = token.certificate(keyId);
        return c instanceof X509Certificate x ? x.getNotBefore().toInstant() : Instant.EPOCH;
    }

    /**
     * Logs in to the token and finds the key, checking that it is still the one the certificate names.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the key is gone or was replaced
     */
    static SigningKey unlock(TokenReference ref, PGPPublicKeyRing certificate, Passphrase pin) {
        Pkcs11Token token = Pkcs11Token.login(ref.module(), Optional.of(ref.tokenLabel()), Optional.of(ref.tokenSerial()), pin);
        KeyPair pair = token.key(ref.keyId());
        PGPPublicKey pub = certificate.getPublicKey();
        try {
            PGPPublicKey inToken = new JcaPGPKeyConverter().getPGPPublicKey(PublicKeyPacket.VERSION_4, pub.getAlgorithm(), pair.getPublic(), pub.getCreationTime());
            if (!Arrays.equals(inToken.getFingerprint(), pub.getFingerprint())) {
                throw new ProofModeException(Failure.INPUT_MISSING, "the key " + ref.keyId() + " in " + token.token().describe()
                        + " is not the device key " + ref.fingerprint() + " any more (replaced in the token?)");
            }
        } catch (PGPException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the token's key cannot be read: " + OpenPgpKeys.oneLine(e), e);
        }
        TokenSigner signer = new TokenSigner(token.provider(), pair, token.token().device());
        return new SigningKey(new PGPPrivateKey(pub.getKeyID(), pub.getPublicKeyPacket(), null), pub, certificate,
                OpenPgpKeys.describe(certificate), Optional.of(signer));
    }
}
