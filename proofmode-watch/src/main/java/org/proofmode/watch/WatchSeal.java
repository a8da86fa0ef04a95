// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.proofmode.age.AgeObjects;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.StoreKeys;
import org.proofmode.util.Hex;

/**
 * What names and seals the watcher's database in a home whose proof store is encrypted, so that nothing in
 * it names media: a 32-byte key ({@link StoreKeys#watchKey}, which the watcher unlocks with the device key's
 * passphrase, never needing the store's identity). Rows are found by keyed names (HMAC-SHA256 of a path or a
 * media hash), and what must be read back (paths, hashes, capture context, errors, the folders watched) is
 * sealed with AES-256-GCM, bound to its row. The database also keeps the key sealed to the store's recipient
 * ({@link #copy()}), so that whoever holds the store's identity (the agent, {@code status} given the
 * passphrase) reads it too. Both sub-keys come from the one key by HMAC; {@link #close()} clears them.
 */
public final class WatchSeal implements AutoCloseable {
    private static final String MAC = "HmacSHA256";
    private static final String AEAD = "AES/GCM/NoPadding";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();

    private final byte[] names;
    private final byte[] values;
    private final String copy;

    private WatchSeal(byte[] key, String copy) {
        if (key.length != StoreKeys.WATCH_KEY_BYTES) {
            throw new ProofModeException(Failure.BAD_DATA, "not a watch key (" + key.length + " bytes)");
        }
        this.names = hmac(key, "proofmode watch database: names");
        this.values = hmac(key, "proofmode watch database: values");
        this.copy = copy;
    }

    /**
     * The seal of a key the watcher unlocked; the caller clears {@code key}.
     *
     * @param keys the home's store keys: the copy is sealed to their recipient
     */
    public static WatchSeal of(byte[] key, StoreKeys keys) {
        return new WatchSeal(key, B64.encodeToString(AgeObjects.seal(key, List.of(keys.sealer()))));
    }

    /**
     * The seal of the home's watch key, unlocked with the device key's passphrase (and made, on first use).
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong
     */
    public static WatchSeal unlock(StoreKeys keys, Passphrase passphrase) {
        byte[] key = keys.watchKey(passphrase);
        try {
            return of(key, keys);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * The seal of a database, opened from its copy of the key with the store's identity.
     *
     * @param copy what {@link #copy()} gave when the database was sealed
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the copy is damaged or sealed to another identity
     */
    public static WatchSeal fromCopy(String copy, StoreIdentity identity) {
        byte[] key;
        try {
            key = AgeObjects.open(new ByteArrayInputStream(Base64.getDecoder().decode(copy)), identity.opener(), "the watch database's key");
        } catch (IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the watch database's key is damaged", e);
        }
        try {
            return new WatchSeal(key, copy);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** The key sealed to the store's recipient, in base64: what the database keeps for identity holders. */
    public String copy() {
        return copy;
    }

    /** Says whether a database was sealed with this key (by the check value it keeps). */
    String check() {
        return name("check", "");
    }

    /** The keyed name of a value: the hex HMAC of the label and the value. */
    synchronized String name(String label, String value) {
        return Hex.encode(hmac(names, label + '\0' + value));
    }

    /** Seals a value, bound to its label and its row: base64 of nonce, ciphertext and tag. */
    synchronized String seal(String label, String row, String plain) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, nonce, label, row);
            byte[] sealed = c.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = Arrays.copyOf(nonce, NONCE + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE, sealed.length);
            return B64.encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot seal a watch database value: " + e.getMessage(), e);
        }
    }

    /**
     * Opens a value sealed by {@link #seal}.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is damaged, or was sealed for another label, row or key
     */
    synchronized String open(String label, String row, String sealed) {
        try {
            byte[] in = Base64.getDecoder().decode(sealed);
            if (in.length < NONCE + TAG_BITS / 8) {
                throw new GeneralSecurityException("too short");
            }
            Cipher c = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(in, NONCE), label, row);
            return new String(c.doFinal(in, NONCE, in.length - NONCE), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the watch database holds a damaged " + label + " value", e);
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String label, String row) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance(AEAD);
        c.init(mode, new SecretKeySpec(values, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD((label + '\0' + row).getBytes(StandardCharsets.UTF_8));
        return c;
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            Mac m = Mac.getInstance(MAC);
            m.init(new SecretKeySpec(Objects.requireNonNull(key), MAC));
            return m.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.INTERNAL, "HMAC-SHA256 is missing: " + e.getMessage(), e);
        }
    }

    /** Clears the sub-keys. */
    @Override
    public synchronized void close() {
        Arrays.fill(names, (byte) 0);
        Arrays.fill(values, (byte) 0);
    }
}
