// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.watch.HomeEncryption;

/** Opens an encrypted proof store for reading: its identity, unlocked with the device key's passphrase. */
final class StoreAccess {
    private StoreAccess() {}

    /**
     * The home, able to read its store: as it is for a plain store, with the identity for an encrypted one
     * (the one the agent running this command holds, if it is this store's; else unlocked with the passphrase
     * from {@code --passphrase-file}, {@code PROOFMODE_PASSPHRASE} or a prompt).
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is missing or wrong
     */
    static ProofMode reading(CliContext ctx, ProofMode pm, Path passphraseFile) {
        if (pm.store().canRead()) {
            return pm;
        }
        if (!pm.storeKeys().exists()) {
            throw new ProofModeException(Failure.KEY_LOCKED, "the proof store in " + pm.store().root()
                    + " is encrypted and its keys were wiped: its proofs cannot be read");
        }
        Optional<StoreIdentity> held = ctx.heldStoreIdentity();
        if (held.isPresent() && held.get().recipient().equals(pm.storeKeys().recipient())) {
            return pm.withStoreIdentity(held.get());
        }
        Passphrase p;
        try {
            p = passphrase(ctx, pm.keys(), passphraseFile);
        } catch (ProofModeException e) {
            if (e.failure() != Failure.KEY_LOCKED || passphraseFile != null) {
                throw e;
            }
            // this command has no --passphrase-file: say what does work for it
            throw new ProofModeException(Failure.KEY_LOCKED, "the proof store is encrypted and locked: set " + Passphrases.ENV
                    + ", or start 'proofmode agent', which holds it unlocked until 'proofmode lock'", e);
        }
        try (p) {
            return pm.withStoreIdentity(pm.storeKeys().unlock(p));
        }
    }

    /**
     * Makes the home's store encrypted, sealing the sets it holds and the watcher's database
     * ({@code keys encrypt-store}, {@code keys create --encrypt-store}, {@code settings set store.encrypt true}),
     * and says so: the recipient on stdout, what was sealed on stderr.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is generated, missing or
     *     wrong, {@link Failure#OUTPUT_EXISTS} if the store is encrypted already, {@link Failure#IO} if a
     *     watcher runs
     */
    static void encrypt(CliContext ctx, ProofMode pm, Path passphraseFile) {
        HomeEncryption.requireReady(pm);
        try (Passphrase p = passphrase(ctx, pm.keys(), passphraseFile)) {
            int moved = HomeEncryption.encrypt(pm, p);
            ctx.out().println("recipient:   " + pm.storeKeys().recipient());
            ctx.err().println("proofmode: the proof store is encrypted" + (moved > 0 ? "; " + moved + " proof set(s) sealed" : "")
                    + "; keep a copy of its identity elsewhere ('proofmode keys export-identity'): without it nothing stored can be read");
        }
    }

    /** The device key's passphrase, which also seals the store's identity. */
    static Passphrase passphrase(CliContext ctx, DeviceKeys keys, Path passphraseFile) {
        if (keys.token().isPresent()) {
            throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token: an encrypted store needs a device key "
                    + "with a passphrase here");
        }
        return Passphrases.unlocking(ctx, passphraseFile, keys);
    }
}
