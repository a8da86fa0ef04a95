// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;

/**
 * Makes a home's proof store encrypted, and with it the watcher's database: the use case of
 * {@code keys encrypt-store}, {@code keys create --encrypt-store}, {@code keys import-identity} and
 * {@code settings set store.encrypt true}. The facade seals the proof sets ({@link ProofMode#encryptStore});
 * this class adds what only the watcher knows: no watcher may run meanwhile (it would go on writing plain
 * proofs and rows), and an existing {@code watch.db} is rewritten sealed with the watch key, so that no path,
 * file name or media hash is left readable in the home.
 */
public final class HomeEncryption {
    private HomeEncryption() {}

    /**
     * Checks, before any passphrase is asked for, that the store can be encrypted now: the device key's
     * passphrase is one the user chose, and no watcher runs on the home.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase was generated and is kept
     *     on disk, {@link Failure#IO} if a watcher runs, or as {@link DeviceKeys#info()} if there is no key
     */
    public static void requireReady(ProofMode pm) {
        DeviceKeys keys = pm.keys();
        keys.info();
        if (keys.storedPassphrase().map(p -> {
            p.clear();
            return true;
        }).orElse(false)) {
            throw new ProofModeException(Failure.KEY_LOCKED, "the device key's passphrase was generated and is kept on disk, where it "
                    + "would protect nothing: choose one first ('proofmode keys protect')");
        }
        requireNoWatcher(pm.home());
    }

    /**
     * Encrypts the store: its identity is made and sealed with the device key's passphrase, the sets it holds
     * are sealed, and so is the watcher's database.
     *
     * @param pm the home
     * @param passphrase the device key's passphrase, checked by unlocking the key first
     * @return the number of proof sets sealed
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#OUTPUT_EXISTS} if the store is encrypted already
     */
    public static int encrypt(ProofMode pm, Passphrase passphrase) {
        pm.keys().unlock(passphrase);
        ProofMode.Encrypted e = pm.encryptStore(passphrase);
        e.identity().destroy();
        sealDatabase(pm, passphrase);
        return e.moved();
    }

    /**
     * Makes the store encrypted to another machine's identity (sealed here with this device key's
     * passphrase), and seals the watcher's database.
     *
     * @param pm the home
     * @param identity the identity to adopt; the caller destroys it
     * @param passphrase the device key's passphrase
     * @return the number of proof sets sealed
     * @throws ProofModeException with {@link Failure#IO} if a watcher runs, {@link Failure#KEY_LOCKED} if the
     *     passphrase is wrong, or as {@link ProofMode#adoptStoreIdentity}
     */
    public static int adopt(ProofMode pm, StoreIdentity identity, Passphrase passphrase) {
        Objects.requireNonNull(identity, "identity");
        requireNoWatcher(pm.home());
        pm.keys().unlock(passphrase);
        int moved = pm.adoptStoreIdentity(identity, passphrase);
        sealDatabase(pm, passphrase);
        return moved;
    }

    /**
     * Refuses to encrypt the store of a home a watcher runs on: it would go on writing plain proofs and rows.
     *
     * @throws ProofModeException with {@link Failure#IO} if a watcher runs
     */
    static void requireNoWatcher(Path home) {
        if (WatchLock.held(home)) {
            throw new ProofModeException(Failure.IO, "a watcher is running on " + home
                    + ": stop it first, then encrypt the store (see: proofmode status)");
        }
    }

    /**
     * Seals the watcher's database of a home whose store was just encrypted, if it has one: its rows are
     * rewritten sealed with the watch key (made now, with the passphrase) and the file is vacuumed.
     */
    private static void sealDatabase(ProofMode pm, Passphrase passphrase) {
        Path file = pm.home().resolve(WatchDb.FILE);
        if (!Files.isRegularFile(file)) {
            return;
        }
        try (WatchSeal seal = WatchSeal.unlock(pm.storeKeys(), passphrase)) {
            WatchDb.open(file, Optional.of(seal)).close(); // opened with a seal, a plain database is sealed
        }
    }
}
