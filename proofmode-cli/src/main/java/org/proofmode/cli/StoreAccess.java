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

    /** The device key's passphrase, which also seals the store's identity. */
    static Passphrase passphrase(CliContext ctx, DeviceKeys keys, Path passphraseFile) {
        if (keys.token().isPresent()) {
            throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token: an encrypted store needs a device key "
                    + "with a passphrase here");
        }
        return Passphrases.unlocking(ctx, passphraseFile, keys);
    }
}
