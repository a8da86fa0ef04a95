// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.proofmode.ProofMode;
import org.proofmode.failure.ProofModeException;
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

    /**
     * When to start unlocking the key for a command that hashes at least {@link #LARGE_WORK} bytes of
     * media: once its first {@link #WARM_BYTES} are hashed, or the key is asked for, or after
     * {@link #LATEST_START_MS} at most. On two cores, an unlock started at once competes with the
     * hashing thread (and with the compiler, which has yet to compile SHA-256 to the processor's own
     * instructions) for the first few hundred milliseconds; started later, its own SHA-256 (the
     * passphrase's iterated derivation) runs compiled, and it still ends long before a large file's hash.
     */
    static final class UnlockStart {
        static final long LARGE_WORK = 256L << 20;
        static final long WARM_BYTES = 32L << 20;
        static final long LATEST_START_MS = 300;

        private final CompletableFuture<Void> start = new CompletableFuture<>();
        private final AtomicLong hashed = new AtomicLong();

        /** Starts at once for a small amount of work, else on the first of the events above. */
        UnlockStart(long totalBytes) {
            if (totalBytes < LARGE_WORK) {
                start.complete(null);
            } else {
                start.completeOnTimeout(null, LATEST_START_MS, TimeUnit.MILLISECONDS);
            }
        }

        CompletableFuture<Void> future() {
            return start;
        }

        /** Counts hashed bytes; starts the unlock once enough were hashed. */
        void hashed(long bytes) {
            if (!start.isDone() && hashed.addAndGet(bytes) >= WARM_BYTES) {
                start.complete(null);
            }
        }

        /** Starts the unlock now (the key is needed, or the command ends). */
        void now() {
            start.complete(null);
        }
    }

    /** Waits for the key (or another secret unlocked with it); rethrows why it could not be had. */
    static <T> T join(CompletableFuture<T> key) {
        try {
            return key.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof ProofModeException pme) {
                throw pme;
            }
            throw e;
        }
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
