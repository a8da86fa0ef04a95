// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
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
import org.proofmode.keys.TokenSigner;
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
            if (device.token().isPresent()) {
                if (cert != null) {
                    throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--cert and --key: the device key is in a PKCS#11 token, "
                            + "and that key signs content credentials (with a certificate from the local C2PA CA)");
                }
                signer = tokenSigner(ctx, pm, keys, device.token().get());
            } else if (cert != null) {
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

    /**
     * The C2PA signer of a key in a token: the token's P-256 key, with a certificate the local CA issued
     * to it (made on first use, the CA's own key then discarded).
     */
    private static C2paSigner tokenSigner(CliContext ctx, ProofMode pm, DeviceKeys keys, TokenSigner token) {
        PublicKey pub = requireEc(token, keys);
        LocalCa ca = new LocalCa(pm.home());
        if (!ca.issuedTo(pub)) {
            HomeLock.run(pm.home(), () -> {
                if (ca.issuedTo(pub)) {
                    return;
                }
                if (Files.exists(ca.caCertificateFile())) {
                    throw new ProofModeException(Failure.INPUT_MISSING, "the local C2PA certificate is for an earlier device key; "
                            + "make one for the key in the token: proofmode c2pa ca --force");
                }
                ca.createFor(pub, keys.info().fingerprint(), false);
                ctx.err().println("proofmode: created a local C2PA certificate authority for the token's key; give "
                        + ca.caCertificateFile() + " to those who should trust your content credentials");
            });
        }
        return ca.signer(token.privateKey(), token.provider(), pub);
    }

    private static PublicKey requireEc(TokenSigner token, DeviceKeys keys) {
        PublicKey pub = token.publicKey();
        if (!"EC".equals(pub.getAlgorithm())) {
            throw new ProofModeException(Failure.UNSUPPORTED, "C2PA signing with a key in a token needs a p256 key; this one is "
                    + keys.info().algorithm() + " (make one with: proofmode keys rotate --pkcs11 MODULE --key-type p256)");
        }
        return pub;
    }

    /** The passphrase-checked creation of the local CA ({@code proofmode c2pa ca}). */
    static LocalCa createCa(CliContext ctx, ProofMode pm, KeyOptions options, boolean force) {
        DeviceKeys keys = pm.keys();
        DeviceKeyAccess.createIfMissing(ctx, keys, options);
        LocalCa ca = new LocalCa(pm.home());
        try (Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys)) {
            SigningKey device = keys.unlock(p);
            if (device.token().isPresent()) {
                PublicKey pub = requireEc(device.token().get(), keys);
                HomeLock.run(pm.home(), () -> {
                    if (Files.exists(ca.caCertificateFile()) && !force) {
                        throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists: " + ca.caCertificateFile()
                                + " (use --force to replace it)");
                    }
                    ca.createFor(pub, keys.info().fingerprint(), true);
                });
                return ca;
            }
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
