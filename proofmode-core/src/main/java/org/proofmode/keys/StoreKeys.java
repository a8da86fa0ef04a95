// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import com.exceptionfactory.jagged.RecipientStanzaWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;
import org.proofmode.util.InputFiles;
import org.proofmode.age.AgeObjects;
import org.proofmode.age.ScryptStanza;
import org.proofmode.age.StoreIdentity;

/**
 * The keys of an encrypted proof store, beside the device key in {@code PROOFMODE_HOME/keys}: the
 * recipient ({@code store-recipient.txt}, {@code age1…}, all that storing needs) and the identity sealed with
 * the device key's passphrase ({@code store-identity.age}, an age file with one scrypt stanza, which
 * {@code age -d} opens with that passphrase). Destroying the identity file (with the device key, by
 * {@link DeviceKeys#wipe()}) makes every sealed object unreadable at once.
 */
public final class StoreKeys {
    /** The length of the watcher's database key, in bytes. */
    public static final int WATCH_KEY_BYTES = 32;
    private static final long MAX_FILE = 64 * 1024;

    private final Path home;
    private final Path dir;
    private final int workFactor;

    /** The store keys of a home, sealed at age's own scrypt work factor. */
    public StoreKeys(Path home) {
        this(home, ScryptStanza.DEFAULT_WORK_FACTOR);
    }

    /**
     * The store keys of a home, sealed at a given work factor (log2 of scrypt's N; tests take a small one).
     */
    public StoreKeys(Path home, int workFactor) {
        this.home = Objects.requireNonNull(home, "home").toAbsolutePath();
        this.dir = Home.STORE_RECIPIENT.in(this.home).getParent();
        this.workFactor = workFactor;
    }

    /** Whether this home's store is encrypted (it has a recipient). */
    public boolean exists() {
        return Files.isRegularFile(recipientFile());
    }

    /** The recipient's file. */
    public Path recipientFile() {
        return Home.STORE_RECIPIENT.in(home);
    }

    /** The sealed identity's file. */
    public Path identityFile() {
        return Home.STORE_IDENTITY.in(home);
    }

    /** The watcher's database key's file. */
    public Path watchKeyFile() {
        return Home.WATCH_KEY.in(home);
    }

    /**
     * The key that names and seals what the folder watcher keeps of an encrypted home (its database), so
     * that the watcher runs without the store's identity: 32 random bytes, sealed with the device key's
     * passphrase like the identity ({@code keys/watch-key.age}, an age file with one scrypt stanza), made on
     * first use. The caller clears the bytes.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong
     */
    public byte[] watchKey(Passphrase passphrase) {
        Optional<byte[]> existing = openWatchKey(passphrase);
        if (existing.isPresent()) {
            return existing.get();
        }
        return HomeLock.holding(home, () -> {
            Optional<byte[]> made = openWatchKey(passphrase);
            if (made.isPresent()) {
                return made.get();
            }
            byte[] key = new byte[WATCH_KEY_BYTES];
            new SecureRandom().nextBytes(key);
            writeWatchKey(key, passphrase);
            return key;
        });
    }

    /**
     * Opens the watcher's database key, if it was made ({@link #watchKey}); the caller clears the bytes.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#BAD_DATA} if the file is damaged
     */
    public Optional<byte[]> openWatchKey(Passphrase passphrase) {
        if (!Files.isRegularFile(watchKeyFile())) {
            return Optional.empty();
        }
        byte[] sealed = InputFiles.read(watchKeyFile(), MAX_FILE, "watch key");
        ScryptStanza.Reader r = ScryptStanza.reader(passphrase.chars(), ScryptStanza.MAX_WORK_FACTOR);
        try {
            byte[] key = AgeObjects.open(new ByteArrayInputStream(sealed), r, watchKeyFile().toString());
            if (key.length != WATCH_KEY_BYTES) {
                Arrays.fill(key, (byte) 0);
                throw new ProofModeException(Failure.BAD_DATA, watchKeyFile() + ": not a watch key");
            }
            return Optional.of(key);
        } finally {
            r.clear();
        }
    }

    private void writeWatchKey(byte[] key, Passphrase passphrase) {
        byte[] sealed = AgeObjects.seal(key, List.of(ScryptStanza.writer(passphrase.chars(), workFactor, new SecureRandom())));
        try {
            AtomicFiles.privateDirectories(dir);
            AtomicFiles.write(watchKeyFile(), sealed, true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + watchKeyFile() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The recipient, {@code age1…}.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is none, {@link Failure#BAD_DATA} if it is not one
     */
    public String recipient() {
        if (!exists()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "this home's store is not encrypted (no " + recipientFile() + ")");
        }
        String r = new String(InputFiles.read(recipientFile(), MAX_FILE, "store recipient"), StandardCharsets.US_ASCII).strip();
        sealer(r);
        return r;
    }

    /**
     * Opens the proof store in this folder of the home: encrypted to this home's recipient when its keys
     * exist (readable with the identity, when given); encrypted and unreadable when its keys were wiped
     * (its marker left); else plain.
     */
    public ProofStore openStore(Path root, Optional<StoreIdentity> identity) {
        if (exists()) {
            return ProofStore.encrypted(root, sealer(), identity.map(StoreIdentity::opener));
        }
        if (Files.exists(root.resolve(ProofStore.ENCRYPTED_MARKER))) {
            RecipientStanzaWriter erased = fileKey -> {
                throw new ProofModeException(Failure.KEY_LOCKED, "the proof store in " + root
                        + " is encrypted and its keys were wiped: its proofs cannot be read; remove them ('proofmode wipe --proofs') to prove again");
            };
            return ProofStore.encrypted(root, erased, Optional.empty());
        }
        return new ProofStore(root);
    }

    /** Writes the recipient's X25519 stanza. */
    public RecipientStanzaWriter sealer() {
        return sealer(recipient());
    }

    private static RecipientStanzaWriter sealer(String recipient) {
        return StoreIdentity.sealer(recipient);
    }

    /**
     * Makes the store's identity, seals it with the passphrase and writes both files (the identity first:
     * a home with a recipient always has its identity).
     *
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the store has keys already
     */
    public StoreIdentity create(Passphrase passphrase) {
        return HomeLock.holding(home, () -> {
            if (exists()) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, "the store is encrypted already (" + recipientFile() + ")");
            }
            StoreIdentity id = StoreIdentity.generate();
            write(id, passphrase);
            return id;
        });
    }

    /**
     * Adopts an identity brought from another machine of the same desk, sealed with this home's passphrase.
     *
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if this store has another identity
     */
    public void adopt(StoreIdentity id, Passphrase passphrase) {
        HomeLock.run(home, () -> {
            if (exists() && !recipient().equals(id.recipient())) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, "this store has another identity (" + recipient()
                        + "); its proofs would become unreadable: wipe it first ('proofmode wipe --keys')");
            }
            write(id, passphrase);
        });
    }

    /** Seals the identity (and the watcher's key) again with a new passphrase (when the device key's changes). */
    public void reseal(Passphrase old, Passphrase fresh) {
        HomeLock.run(home, () -> {
            StoreIdentity id = unlock(old);
            Optional<byte[]> watch = openWatchKey(old);
            try {
                write(id, fresh);
                watch.ifPresent(k -> writeWatchKey(k, fresh));
            } finally {
                id.destroy();
                watch.ifPresent(k -> Arrays.fill(k, (byte) 0));
            }
        });
    }

    private void write(StoreIdentity id, Passphrase passphrase) {
        byte[] sealed = id.protect(passphrase.chars(), workFactor, Instant.now());
        try {
            AtomicFiles.privateDirectories(dir);
            AtomicFiles.write(identityFile(), sealed, true, true);
            AtomicFiles.write(recipientFile(), (id.recipient() + "\n").getBytes(StandardCharsets.US_ASCII), true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write the store's keys in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The sealed identity file as it is (what {@code keys export-identity} writes by default).
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the store has no identity
     */
    public byte[] sealedIdentity() {
        if (!Files.isRegularFile(identityFile())) {
            throw new ProofModeException(Failure.INPUT_MISSING, "this home's store has no identity (" + identityFile()
                    + "); it is not encrypted, or its keys were wiped");
        }
        return InputFiles.read(identityFile(), MAX_FILE, "store identity");
    }

    /**
     * Opens the identity with the passphrase.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#BAD_DATA} if the file is damaged or its key is not this store's recipient's
     */
    public StoreIdentity unlock(Passphrase passphrase) {
        StoreIdentity id = StoreIdentity.unlock(sealedIdentity(), passphrase.chars(), identityFile().toString());
        if (exists() && !id.recipient().equals(recipient())) {
            id.destroy();
            throw new ProofModeException(Failure.BAD_DATA, identityFile() + ": its key is not the one of " + recipientFile());
        }
        return id;
    }
}
