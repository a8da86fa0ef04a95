// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;

/**
 * An unlocked device key, ready to sign. Obtained from {@link DeviceKeys#unlock(Passphrase)}; it lives
 * in memory only and is never written anywhere. A key held in a PKCS#11 token is a logged-in token
 * session instead ({@link #token()}): its private key never leaves the token.
 *
 * <p>Security: {@link #privateKey()} is the one access step to secret material (for a token key it
 * holds none); {@link #toString()} shows only public facts.
 */
public final class SigningKey {
    private final PGPPrivateKey privateKey;
    private final PGPPublicKey signingPublicKey;
    private final PGPPublicKeyRing certificate;
    private final KeyInfo info;
    private final Optional<TokenSigner> token;

    SigningKey(PGPPrivateKey privateKey, PGPPublicKey signingPublicKey, PGPPublicKeyRing certificate, KeyInfo info) {
        this(privateKey, signingPublicKey, certificate, info, Optional.empty());
    }

    SigningKey(PGPPrivateKey privateKey, PGPPublicKey signingPublicKey, PGPPublicKeyRing certificate, KeyInfo info,
            Optional<TokenSigner> token) {
        this.token = Objects.requireNonNull(token, "token");
        this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
        this.signingPublicKey = Objects.requireNonNull(signingPublicKey, "signingPublicKey");
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.info = Objects.requireNonNull(info, "info");
    }

    /**
     * Returns the secret signing key material; for a key in a token, Bouncy Castle's key object with the
     * public packet only (the token signs, see {@link #token()}).
     */
    public PGPPrivateKey privateKey() {
        return privateKey;
    }

    /** Returns the public half of the (sub)key that signs. */
    public PGPPublicKey signingPublicKey() {
        return signingPublicKey;
    }

    /** Returns the whole public certificate, as written to {@code pubkey.asc}. */
    public PGPPublicKeyRing certificate() {
        return certificate;
    }

    /** Returns public facts about the key. */
    public KeyInfo info() {
        return info;
    }

    /** The token session that signs, for a key held in a PKCS#11 token. */
    public Optional<TokenSigner> token() {
        return token;
    }

    /** Where the key is held, as proofs record it ({@link KeyStorage}). */
    public String storage() {
        return token.map(t -> KeyStorage.pkcs11(t.device())).orElse(KeyStorage.FILE);
    }

    @Override
    public String toString() {
        return "SigningKey[" + info.fingerprint() + "]";
    }
}
