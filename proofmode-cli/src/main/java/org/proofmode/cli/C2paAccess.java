// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Map;
import org.proofmode.ProofMode;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.Pem;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.util.HomeLock;

/** Unlocks the C2PA signer: this home's local CA certificate, or a certificate and key the user gives. */
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
            C2paSigner signer;
            if (cert != null) {
                try {
                    signer = new C2paSigner(Pem.decryptKey(key, p), Pem.certificates(cert));
                } catch (IllegalArgumentException e) {
                    throw new ProofModeException(Failure.BAD_DATA, cert + ": " + e.getMessage(), e);
                }
            } else {
                LocalCa ca = new LocalCa(pm.home());
                if (!ca.exists()) {
                    // Made once: racers on a new home wait here and use the one that was made.
                    HomeLock.run(pm.home(), () -> {
                        if (!ca.exists()) {
                            ca.create(p, keys.info().fingerprint(), false);
                            ctx.err().println("proofmode: created a local C2PA certificate authority; give "
                                    + ca.caCertificateFile() + " to those who should trust your content credentials");
                        }
                    });
                }
                signer = ca.signer(p);
            }
            return new Unlocked(device, keys.info(), signer);
        }
    }

    /** The passphrase-checked creation of the local CA ({@code proofmode c2pa ca}). */
    static LocalCa createCa(CliContext ctx, ProofMode pm, KeyOptions options, boolean force) {
        DeviceKeys keys = pm.keys();
        DeviceKeyAccess.createIfMissing(ctx, keys, options);
        LocalCa ca = new LocalCa(pm.home());
        try (Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys)) {
            keys.unlock(p);
            HomeLock.run(pm.home(), () -> {
                if (ca.exists() && !force) {
                    throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists: " + ca.caCertificateFile()
                            + " (use --force to replace it; content credentials signed before then stay valid but no longer chain to it)");
                }
                ca.create(p, keys.info().fingerprint(), force);
            });
        }
        return ca;
    }

}
