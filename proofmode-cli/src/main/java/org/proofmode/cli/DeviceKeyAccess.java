// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.proofmode.ProofMode;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;

/** Unlocks the device key, creating it on first use. */
final class DeviceKeyAccess {
    private DeviceKeyAccess() {}

    static SigningKey unlockOrCreate(CliContext ctx, ProofMode pm, KeyOptions options) {
        DeviceKeys keys = pm.keys();
        createIfMissing(ctx, keys, options);
        try (Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys)) {
            return keys.unlock(p);
        }
    }

    /**
     * Creates the device key on first use. Commands started at once on a new home make one key between
     * them (under the home's lock); only the one that made it says so.
     */
    static void createIfMissing(CliContext ctx, DeviceKeys keys, KeyOptions options) {
        if (keys.exists()) {
            return;
        }
        Optional<Passphrase> passphrase = Passphrases.given(ctx, options.passphraseFile);
        try {
            keys.createIfMissing(options.keyType, passphrase).ifPresent(c -> announce(ctx, c, "created"));
        } finally {
            passphrase.ifPresent(Passphrase::clear);
        }
    }

    /**
     * Starts unlocking (or creating) the key in the background. The passphrase is resolved first, on
     * this thread, so that a terminal prompt is not mixed with other output.
     */
    static CompletableFuture<SigningKey> unlockOrCreateAsync(CliContext ctx, ProofMode pm, KeyOptions options) {
        return unlockOrCreateAsync(ctx, pm, options, CompletableFuture.completedFuture(null));
    }

    /**
     * As {@link #unlockOrCreateAsync(CliContext, ProofMode, KeyOptions)}, but an existing key's unlock waits
     * for {@code start} (a key to be made is made at once). The passphrase is still resolved now.
     */
    static CompletableFuture<SigningKey> unlockOrCreateAsync(CliContext ctx, ProofMode pm, KeyOptions options,
            CompletableFuture<Void> start) {
        DeviceKeys keys = pm.keys();
        if (!keys.exists()) {
            return CompletableFuture.supplyAsync(() -> unlockOrCreate(ctx, pm, options));
        }
        Passphrase p = Passphrases.unlocking(ctx, options.passphraseFile, options.pinFile, keys);
        return start.handleAsync((ignored, x) -> {
            try (p) {
                return keys.unlock(p);
            }
        });
    }

    static void create(CliContext ctx, DeviceKeys keys, KeyType type, Optional<Passphrase> passphrase) {
        create(ctx, keys, type, passphrase, DeviceKeys.USER_ID);
    }

    /** As {@link #create(CliContext, DeviceKeys, KeyType, Optional)}, with a user ID that names the key's owner. */
    static void create(CliContext ctx, DeviceKeys keys, KeyType type, Optional<Passphrase> passphrase, String userId) {
        try {
            DeviceKeys.Created c = keys.create(type, passphrase, userId);
            announce(ctx, c, "created");
        } finally {
            passphrase.ifPresent(Passphrase::clear);
        }
    }

    static void announce(CliContext ctx, DeviceKeys.Created c, String verb) {
        ctx.err().println("proofmode: " + verb + " device key " + c.info().fingerprint() + " (" + c.info().algorithm() + ")");
        c.generatedPassphraseFile().ifPresent(f -> ctx.err().println(
                "proofmode: its passphrase was generated and saved, readable by you only, in " + f
                        + "; to choose your own, run: proofmode keys protect"));
    }
}
