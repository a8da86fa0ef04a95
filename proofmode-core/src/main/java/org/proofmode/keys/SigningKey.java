// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.util.Objects;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;

/**
 * An unlocked device key, ready to sign. Obtained from {@link DeviceKeys#unlock(Passphrase)}; it lives
 * in memory only and is never written anywhere.
 *
 * <p>Security: {@link #privateKey()} is the one access step to secret material; {@link #toString()}
 * shows only public facts.
 */
public final class SigningKey {
    private final PGPPrivateKey privateKey;
    private final PGPPublicKey signingPublicKey;
    private final PGPPublicKeyRing certificate;
    private final KeyInfo info;

    SigningKey(PGPPrivateKey privateKey, PGPPublicKey signingPublicKey, PGPPublicKeyRing certificate, KeyInfo info) {
        this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
        this.signingPublicKey = Objects.requireNonNull(signingPublicKey, "signingPublicKey");
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.info = Objects.requireNonNull(info, "info");
    }

    /** Returns the secret signing key material. */
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

    @Override
    public String toString() {
        return "SigningKey[" + info.fingerprint() + "]";
    }
}
