// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.pgpainless.PGPainless;
import org.pgpainless.key.info.KeyRingInfo;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;
import org.proofmode.util.InputFiles;

/**
 * The device key store in {@code PROOFMODE_HOME/keys}: one current signing key, always encrypted
 * (AES-256 with an iterated and salted S2K), and the public keys of every key used before, so that old
 * proofs still verify after a rotation.
 *
 * <p>Layout: {@code secret.asc} (armored, encrypted secret key), {@code passphrase} (only when the
 * passphrase was generated, readable by the owner only), {@code public/<FINGERPRINT>.asc}.
 *
 * <p>Security: the secret key is encrypted before it is written; files and the folder are owner-only;
 * replaced secret key files are overwritten before they are deleted.
 */
public final class DeviceKeys {
    /** The user ID of keys made here. It names no person and no machine. */
    public static final String USER_ID = "ProofMode device key";

    private final Path dir;

    /**
     * Opens the key store in {@code home/keys}; nothing is created until a key is.
     *
     * @param home the ProofMode home folder
     */
    public DeviceKeys(Path home) {
        this.dir = Home.DEVICE_KEY.in(Objects.requireNonNull(home, "home")).getParent();
    }

    /** What {@link #create} made. */
    public record Created(KeyInfo info, Optional<Path> generatedPassphraseFile) {}

    /** Tells whether a device key exists (a key file, or a reference to a key in a token). */
    public boolean exists() {
        return Files.isRegularFile(secretFile()) || Files.isRegularFile(tokenFile());
    }

    /** The file of the reference to a key held in a PKCS#11 token; exists only for such a key. */
    public Path tokenFile() {
        return Home.TOKEN_REFERENCE.in(home());
    }

    /** The file that names the current key (the secret key file, or the token reference). */
    public Path keyFile() {
        return Files.isRegularFile(tokenFile()) ? tokenFile() : secretFile();
    }

    /**
     * Where the current key is held, if it is in a PKCS#11 token.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the reference cannot be read
     */
    public Optional<TokenReference> token() {
        Path file = tokenFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(TokenReference.fromJson(InputFiles.read(file, InputFiles.PASSPHRASE_BYTES, "token reference"), file));
    }

    /** The file holding a generated passphrase, if one was generated. */
    public Path passphraseFile() {
        return Home.GENERATED_PASSPHRASE.in(home());
    }

    /**
     * Returns the generated passphrase stored beside the key, if the user never set one.
     *
     * @throws ProofModeException with {@link Failure#IO} if it exists but cannot be read
     */
    public Optional<Passphrase> storedPassphrase() {
        Path file = passphraseFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(Passphrase.read(file));
    }

    /**
     * Creates the device key. With no passphrase, a random one is made and kept in an owner-only file.
     *
     * @param type the key algorithm
     * @param passphrase the passphrase to protect it with, or empty to generate one
     * @return facts about the new key and where a generated passphrase was written
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if a key exists already
     */
    public Created create(KeyType type, Optional<Passphrase> passphrase) {
        return create(type, passphrase, USER_ID);
    }

    /**
     * Creates the device key with a user ID that names its owner, as {@link #create(KeyType, Optional)}.
     *
     * @param userId the OpenPGP user ID, e.g. {@code Alice Example, Example News} ({@link #checkUserId})
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a user ID that is empty, too long or
     *     holds control characters, {@link Failure#OUTPUT_EXISTS} if a key exists already
     */
    public Created create(KeyType type, Optional<Passphrase> passphrase, String userId) {
        String id = checkUserId(userId);
        return HomeLock.holding(home(), () -> {
            if (exists()) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, "a device key exists already in " + dir);
            }
            return createUnchecked(type, passphrase, id);
        });
    }

    /**
     * Gives the device key a new user ID (a name, an organisation), made its primary one and certified by the
     * key; the user IDs it had are revoked as no longer valid, so every OpenPGP tool shows the new one.
     * Signatures made before stay good: the key itself does not change. The public key in {@code public/} is
     * replaced too, so proofs made from now on carry the new user ID in {@code pubkey.asc}.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a bad user ID, {@link Failure#UNSUPPORTED}
     *     for a key in a PKCS#11 token, {@link Failure#KEY_LOCKED} for a wrong passphrase
     */
    public KeyInfo rename(Passphrase passphrase, String userId) {
        String id = checkUserId(userId);
        return HomeLock.holding(home(), () -> {
            if (token().isPresent()) {
                throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token: its user ID is "
                        + "certified when the key is made or adopted and cannot be changed here yet");
            }
            PGPSecretKeyRing renamed = KeyPolicy.rename(readSecret(), passphrase, id);
            store(renamed);
            return OpenPgpKeys.describe(renamed);
        });
    }

    /**
     * Checks a user ID given for a key: 1 to 256 characters, no control characters (it is shown on one line).
     *
     * @return the user ID, stripped
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} otherwise
     */
    public static String checkUserId(String userId) {
        String id = userId == null ? "" : userId.strip();
        if (id.isEmpty() || id.length() > 256 || id.codePoints().anyMatch(Character::isISOControl)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "a key name is 1 to 256 characters on one line, such as "
                    + "'Alice Example, Example News'");
        }
        return id;
    }

    /**
     * Creates the device key unless one exists, as {@link #create}; several processes or threads that
     * start at once on a new home make one key between them, and all use it.
     *
     * @return what was made, or empty if a key existed (or another racer made it first)
     */
    public Optional<Created> createIfMissing(KeyType type, Optional<Passphrase> passphrase) {
        if (exists()) {
            return Optional.empty();
        }
        return HomeLock.holding(home(), () -> exists() ? Optional.empty() : Optional.of(createUnchecked(type, passphrase, USER_ID)));
    }

    private Path home() {
        return dir.getParent();
    }

    private Created createUnchecked(KeyType type, Optional<Passphrase> passphrase, String userId) {
        Passphrase secret = passphrase.orElseGet(Passphrase::random);
        try {
            PGPSecretKeyRing ring = KeyPolicy.generate(type, secret, passphrase.isEmpty(), userId);
            Optional<Path> generated = Optional.empty();
            if (passphrase.isEmpty()) {
                secret.writeOwnerOnly(passphraseFile());
                generated = Optional.of(passphraseFile());
            } else {
                shred(passphraseFile());
            }
            store(ring);
            return new Created(OpenPgpKeys.describe(ring), generated);
        } finally {
            if (passphrase.isEmpty()) {
                secret.clear();
            }
        }
    }

    /**
     * Describes the current key.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is none
     */
    public KeyInfo info() {
        Optional<TokenReference> token = token();
        return token.isPresent() ? OpenPgpKeys.describe(tokenCertificate(token.get())) : OpenPgpKeys.describe(readSecret());
    }

    /** Returns the current public certificate. */
    public PGPPublicKeyRing certificate() {
        Optional<TokenReference> token = token();
        return token.isPresent() ? tokenCertificate(token.get()) : PGPainless.extractCertificate(readSecret());
    }

    private PGPPublicKeyRing tokenCertificate(TokenReference token) {
        Path file = publicFile(token.fingerprint());
        if (!Files.isRegularFile(file)) {
            throw new ProofModeException(Failure.INPUT_MISSING, "the public key of the token's device key is missing: " + file);
        }
        List<PGPPublicKeyRing> certs = OpenPgpKeys.readCertificates(InputFiles.read(file, InputFiles.KEY_BYTES, "public key"), file.toString());
        return certs.get(0);
    }

    private Path publicFile(String fingerprint) {
        return Home.PUBLIC_KEYS.in(home()).resolve(fingerprint + ".asc");
    }

    /** Returns the public certificates of the current key and of every key used before it. */
    public List<PGPPublicKeyRing> allCertificates() {
        List<PGPPublicKeyRing> out = new ArrayList<>();
        Path pub = Home.PUBLIC_KEYS.in(home());
        if (Files.isDirectory(pub)) {
            try (Stream<Path> files = Files.list(pub)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".asc")).sorted()::iterator) {
                    out.addAll(OpenPgpKeys.readCertificates(Files.readAllBytes(f), f.toString()));
                }
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot read " + pub + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * Unlocks the current key for signing.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#INPUT_MISSING} if there is no key, {@link Failure#UNSUPPORTED} if it cannot sign
     */
    public SigningKey unlock(Passphrase passphrase) {
        Optional<TokenReference> token = token();
        if (token.isPresent()) {
            return TokenKeys.unlock(token.get(), tokenCertificate(token.get()), passphrase);
        }
        byte[] file = readSecretBytes();
        PGPSecretKeyRing ring = OpenPgpKeys.readSecretKey(file, secretFile().toString());
        CheckedKeyFile.Note checked = checkedSigningKey(ring, CheckedKeyFile.hash(file));
        PGPPublicKey signingPublic = ring.getPublicKey(checked.signingKeyId());
        PGPSecretKey secretKey = ring.getSecretKey(signingPublic.getKeyID());
        PGPPrivateKey privateKey = KeyPolicy.unlock(secretKey, passphrase);
        return new SigningKey(privateKey, signingPublic, PGPainless.extractCertificate(ring),
                OpenPgpKeys.describe(ring.getPublicKey(), checked.userId()));
    }

    /**
     * Changes the passphrase. A generated passphrase file is removed afterwards.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the old passphrase is wrong
     */
    public void changePassphrase(Passphrase oldPassphrase, Passphrase newPassphrase) {
        HomeLock.run(home(), () -> {
            if (token().isPresent()) {
                throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token and has no passphrase; "
                        + "change the token's PIN with its own tools (e.g. pkcs11-tool --change-pin)");
            }
            PGPSecretKeyRing ring = readSecret();
            KeyPolicy.unlock(ring.getSecretKey(KeyPolicy.signingKeyOf(ring, "the device key").getKeyID()), oldPassphrase);
            PGPSecretKeyRing changed = KeyPolicy.reprotect(ring, Optional.of(oldPassphrase), newPassphrase, false);
            store(changed);
            shred(passphraseFile());
        });
    }

    /**
     * Replaces the current key by a new one, with the current key's user ID. The old public key is kept; the
     * old secret key is overwritten and deleted.
     *
     * @return the new key and where a generated passphrase was written
     */
    public Created rotate(KeyType type, Optional<Passphrase> passphrase) {
        return HomeLock.holding(home(), () -> {
            // The new key keeps the name of the one it replaces.
            String name = exists() ? Optional.of(info().userId()).filter(n -> !n.isBlank()).orElse(USER_ID) : USER_ID;
            if (token().isPresent()) {
                // from a token to a file: the new key is stored before the reference goes (its public key stays)
                Created made = createUnchecked(type, passphrase, name);
                shred(tokenFile());
                return made;
            }
            if (exists()) {
                retireCurrent();
            }
            return createUnchecked(type, passphrase, name);
        });
    }

    /**
     * Makes an existing OpenPGP secret key the device key, encrypted with our settings.
     *
     * @param keyBytes the secret key, armored or binary
     * @param name what to call it in messages
     * @param keyPassphrase the passphrase it is protected with now, if any
     * @param newPassphrase the passphrase to protect it with here; if empty, {@code keyPassphrase} is used
     *     (also for a key that was unprotected), and if that is empty too, one is generated
     * @param replace whether an existing device key may be retired for it
     * @throws ProofModeException with {@link Failure#BAD_DATA} for something that is not a usable secret
     *     key, {@link Failure#UNSUPPORTED} for a weak or non-signing key, {@link Failure#KEY_LOCKED} for a
     *     wrong passphrase, {@link Failure#OUTPUT_EXISTS} if a key exists and {@code replace} is false
     */
    public Created importKey(byte[] keyBytes, String name, Optional<Passphrase> keyPassphrase,
            Optional<Passphrase> newPassphrase, boolean replace) {
        return HomeLock.holding(home(), () -> importLocked(keyBytes, name, keyPassphrase, newPassphrase, replace));
    }

    private Created importLocked(byte[] keyBytes, String name, Optional<Passphrase> keyPassphrase,
            Optional<Passphrase> newPassphrase, boolean replace) {
        PGPSecretKeyRing ring = OpenPgpKeys.readSecretKey(keyBytes, name);
        KeyPolicy.checkStrength(ring, name);
        PGPPublicKey signing = KeyPolicy.signingKeyOf(ring, name);
        if (!OpenPgpKeys.canSign(signing)) {
            throw new ProofModeException(Failure.UNSUPPORTED, name + ": cannot sign with a "
                    + OpenPgpKeys.algorithmName(signing) + " key; use ed25519, rsa (2048 bits or more), or ecdsa on P-256");
        }
        PGPSecretKey secretKey = ring.getSecretKey(signing.getKeyID());
        if (secretKey == null || secretKey.isPrivateKeyEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": the signing key's secret part is missing");
        }
        boolean encrypted = secretKey.getKeyEncryptionAlgorithm() != 0;
        if (encrypted && keyPassphrase.isEmpty()) {
            throw new ProofModeException(Failure.KEY_LOCKED, name + ": the key is protected; give its passphrase");
        }
        KeyPolicy.unlock(secretKey, encrypted ? keyPassphrase.get() : null);
        if (exists() && !replace) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS,
                    "a device key exists already; use --force to retire it and import this one");
        }
        Optional<Passphrase> target = newPassphrase.isPresent() ? newPassphrase : keyPassphrase;
        Passphrase secret = target.orElseGet(Passphrase::random);
        try {
            PGPSecretKeyRing protectedRing = KeyPolicy.reprotect(ring, encrypted ? keyPassphrase : Optional.empty(), secret, target.isEmpty());
            if (exists()) {
                retireCurrent();
            }
            Optional<Path> generated = Optional.empty();
            if (target.isEmpty()) {
                secret.writeOwnerOnly(passphraseFile());
                generated = Optional.of(passphraseFile());
            } else {
                shred(passphraseFile());
            }
            store(protectedRing);
            return new Created(OpenPgpKeys.describe(protectedRing), generated);
        } finally {
            if (target.isEmpty()) {
                secret.clear();
            }
        }
    }

    /**
     * Overwrites and deletes every file of the key store (secret key, generated passphrase, identifier
     * secret, public keys): the panic wipe.
     *
     * @throws ProofModeException with {@link Failure#IO} if a file cannot be wiped
     */
    public void wipe() {
        HomeLock.run(home(), this::wipeLocked);
    }

    private void wipeLocked() {
        shred(secretFile());
        shred(passphraseFile());
        if (Files.isDirectory(dir)) {
            // the identifier secret and public keys too: nothing of the device is left to recognise
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))::iterator) {
                    shred(f);
                }
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot wipe " + dir + ": " + e.getMessage(), e);
            }
        }
        try {
            AtomicFiles.deleteTree(dir);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot remove " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Returns the secret key file; exists only when a key was made. */
    public Path secretFile() {
        return Home.DEVICE_KEY.in(home());
    }

    /**
     * Refuses, before any PIN is asked for, a key type that cannot be made in a token here.
     *
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} for Ed25519 (Java's PKCS#11 provider
     *     cannot sign with EdDSA)
     */
    public static void requireTokenKeyType(KeyType type) {
        TokenKeys.requireTokenType(type);
    }

    /**
     * Makes a new key pair inside a PKCS#11 token the device key: the token makes it (sensitive, never
     * extractable) and signs its certificate; the home keeps the public key and the token reference only.
     *
     * @param module the PKCS#11 module
     * @param label the token label, or empty for the one token present
     * @param type {@link KeyType#P256}, {@link KeyType#RSA3072} or {@link KeyType#RSA4096}
     * @param pin the token's user PIN; not cleared here
     * @param replace whether an existing device key may be retired for it (its public key is kept)
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if a key exists and {@code replace}
     *     is false, {@link Failure#UNSUPPORTED} for Ed25519, and the token's failures (see
     *     {@link TokenKeys})
     */
    public Created createOnToken(Path module, Optional<String> label, KeyType type, Passphrase pin, boolean replace) {
        return HomeLock.holding(home(), () -> {
            refuseExisting(replace);
            TokenKeys.Made made = TokenKeys.create(module, label, type, pin);
            return adopt(made);
        });
    }

    /**
     * Makes a key already in a PKCS#11 token the device key: one made by {@link #createOnToken} for another
     * home, one with a certificate under the same ID (as smart cards hold them), or a key pair another tool
     * made, which first gets its certificate in the token (see {@code TokenObjects}).
     *
     * @param keyId the key's ID in the token: its label, or its ID in hex
     * @throws ProofModeException as {@link #createOnToken}, {@link Failure#INPUT_MISSING} if the token holds
     *     no such key, {@link Failure#BAD_ARGUMENT} if it is known by another label, {@link Failure#BAD_DATA}
     *     if the public key beside it is not its own
     */
    public Created useTokenKey(Path module, Optional<String> label, String keyId, Passphrase pin, boolean replace) {
        return HomeLock.holding(home(), () -> {
            refuseExisting(replace);
            return adopt(TokenKeys.use(module, label, keyId, pin));
        });
    }

    private void refuseExisting(boolean replace) {
        if (exists() && !replace) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS,
                    "a device key exists already in " + dir + "; use 'proofmode keys rotate' to replace it (its public key is kept)");
        }
    }

    /** Writes the public key, then the reference (the step that makes it the device key), then retires the old key. */
    private Created adopt(TokenKeys.Made made) {
        try {
            AtomicFiles.ownerOnlyDirectory(dir);
            writePublic(made.certificate());
            boolean fileKey = Files.isRegularFile(secretFile()) && token().isEmpty();
            if (fileKey) {
                writePublic(PGPainless.extractCertificate(readSecret()));
            }
            AtomicFiles.write(tokenFile(), made.reference().toJson(), true, true);
            if (fileKey) {
                shred(secretFile());
            }
            shred(passphraseFile());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write the token reference to " + dir + ": " + e.getMessage(), e);
        }
        return new Created(OpenPgpKeys.describe(made.certificate()), Optional.empty());
    }

    private void retireCurrent() {
        Optional<TokenReference> token = token();
        if (token.isPresent()) {
            // the public key is in public/ already; the key itself stays in the token
            shred(tokenFile());
            return;
        }
        PGPSecretKeyRing old = readSecret();
        writePublic(PGPainless.extractCertificate(old));
        shred(secretFile());
    }

    private PGPSecretKeyRing readSecret() {
        return OpenPgpKeys.readSecretKey(readSecretBytes(), secretFile().toString());
    }

    private byte[] readSecretBytes() {
        Path file = secretFile();
        if (!Files.isRegularFile(file)) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no device key in " + dir + " (run: proofmode keys show)");
        }
        return InputFiles.read(file, InputFiles.KEY_BYTES, "key file");
    }

    /**
     * The signing key of the device key file, checked in full the first time these exact bytes are
     * unlocked and taken from the note of that check afterwards (see {@link CheckedKeyFile}).
     */
    /**
     * What the full check of the key file finds (which key signs, until when, the primary user ID), taken
     * from the note of an earlier check of the very same bytes where there is one.
     */
    private CheckedKeyFile.Note checkedSigningKey(PGPSecretKeyRing ring, String fileSha256) {
        Optional<CheckedKeyFile.Note> noted = CheckedKeyFile.find(dir, fileSha256, Instant.now());
        if (noted.isPresent()) {
            PGPPublicKey k = ring.getPublicKey(noted.get().signingKeyId());
            if (k != null && ring.getSecretKey(k.getKeyID()) != null) {
                return noted.get();
            }
        }
        KeyRingInfo info = KeyPolicy.inspect(ring, "the device key");
        PGPPublicKey k = KeyPolicy.signingKeyOf(info, "the device key");
        Date primary = info.getPrimaryKeyExpirationDate();
        Date own = k.isMasterKey() ? null : info.getSubkeyExpirationDate(k.getKeyID());
        Optional<Instant> expires = Stream.of(primary, own).filter(Objects::nonNull).map(Date::toInstant).min(Comparator.naturalOrder());
        CheckedKeyFile.Note note = new CheckedKeyFile.Note(fileSha256, k.getKeyID(), expires, OpenPgpKeys.primaryUserId(info));
        CheckedKeyFile.remember(dir, note);
        return note;
    }

    private void store(PGPSecretKeyRing ring) {
        KeyPolicy.assertEncrypted(ring);
        try {
            AtomicFiles.ownerOnlyDirectory(dir);
            writePublic(PGPainless.extractCertificate(ring));
            AtomicFiles.write(secretFile(), OpenPgpKeys.armor(ring), true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write the device key to " + dir + ": " + e.getMessage(), e);
        }
    }

    private void writePublic(PGPPublicKeyRing cert) {
        try {
            Path pub = AtomicFiles.ownerOnlyDirectory(Home.PUBLIC_KEYS.in(home()));
            Path file = pub.resolve(OpenPgpKeys.fingerprint(cert.getPublicKey()) + ".asc");
            AtomicFiles.write(file, OpenPgpKeys.armor(cert), true, false);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write a public key to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Overwrites a file with random bytes, flushes, then deletes it: the key store's files, and other
     * secrets of a home (an upload token). A file that is not there is nothing to do.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be overwritten or deleted
     */
    public static void shred(Path file) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            long size = Files.size(file);
            byte[] noise = new byte[(int) Math.min(size, 1 << 16)];
            SecureRandom rnd = new SecureRandom();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE);
                 OutputStream out = Channels.newOutputStream(ch)) {
                for (long done = 0; done < size; done += noise.length) {
                    rnd.nextBytes(noise);
                    out.write(noise, 0, (int) Math.min(noise.length, size - done));
                }
                out.flush();
                ch.force(true);
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot wipe " + file + ": " + e.getMessage(), e);
        }
    }
}
