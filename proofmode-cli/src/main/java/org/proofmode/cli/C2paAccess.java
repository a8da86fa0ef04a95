// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.SignerSetup;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;

/**
 * Unlocks the C2PA signer with the device key's passphrase (the set-up itself is {@link SignerSetup}): this
 * home's local CA certificate, or a certificate and key the user gives; says when a local CA was made.
 */
final class C2paAccess {
    private C2paAccess() {}

    /**
     * The device key's info and the C2PA signer, with one passphrase (the device key's).
     *
     * @param cert a user-supplied certificate chain (PEM, leaf first), or null for the local CA's
     * @param key its private key (PEM; encrypted PKCS#8 is decrypted with the passphrase), or null
     */
    static Map.Entry<KeyInfo, C2paSigner> unlock(CliContext ctx, ProofMode pm, KeyOptions options, Path cert, Path key) {
        Unlocked u = unlockBoth(ctx, pm, options, cert, key);
        return Map.entry(u.info(), u.signer());
    }

    /**
     * The unlocked device key and the C2PA signer, for commands that sign both ways (one passphrase prompt).
     *
     * @param key the unlocked OpenPGP device key
     * @param info its info
     * @param signer the C2PA signer
     */
    record Unlocked(SigningKey key, KeyInfo info, C2paSigner signer) {}

    /** As {@link #unlock}, keeping the unlocked device key. */
    static Unlocked unlockBoth(CliContext ctx, ProofMode pm, KeyOptions options, Path cert, Path key) {
        if ((cert == null) != (key == null)) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--cert and --key go together");
        }
        DeviceKeys keys = pm.keys();
        DeviceKeyAccess.createIfMissing(ctx, keys, options);
        try (Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys)) {
            SigningKey device = keys.unlock(p);
            SignerSetup.Signer s = SignerSetup.signer(pm.home(), device, keys.info(), p,
                    cert == null ? Optional.empty() : Optional.of(new SignerSetup.Given(cert, key)));
            s.made().ifPresent(m -> ctx.err().println("proofmode: created a local C2PA certificate authority"
                    + (m == SignerSetup.Made.LOCAL_CA_FOR_TOKEN ? " for the token's key" : "") + "; give " + s.caCertificate()
                    + " to those who should trust your content credentials"));
            return new Unlocked(device, keys.info(), s.signer());
        }
    }

    /** The passphrase-checked creation of the local CA ({@code proofmode c2pa ca}). */
    static LocalCa createCa(CliContext ctx, ProofMode pm, KeyOptions options, boolean force) {
        DeviceKeys keys = pm.keys();
        DeviceKeyAccess.createIfMissing(ctx, keys, options);
        try (Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys)) {
            return SignerSetup.createCa(pm.home(), keys.unlock(p), keys.info(), p, force);
        }
    }
}
