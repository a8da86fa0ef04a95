// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import org.proofmode.media.Digests;

/**
 * A key that verifies signed notes (C2SP {@code signed-note}): a name and an Ed25519 public key. Its
 * text form, the <em>verifier key</em>, is {@code <name>+<key hash, 8 hex digits>+<base64 of 0x01 ‖ the
 * 32-byte key>}, where the key hash is the first four bytes of {@code SHA-256(name ‖ "\n" ‖ 0x01 ‖ key)};
 * signatures name their key by name and key hash.
 *
 * @param name the key's name: no spaces, no '+', not empty
 * @param publicKey the 32-byte Ed25519 public key
 */
public record NoteKey(String name, byte[] publicKey) {
    /** The signature algorithm byte of Ed25519 in key encodings. */
    static final byte ED25519 = 1;

    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo, before the 32 key bytes. */
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    /** Validates and copies the fields. */
    public NoteKey {
        if (!validName(name)) {
            throw new IllegalArgumentException("not a note key name: " + name);
        }
        if (publicKey.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key has 32 bytes, not " + publicKey.length);
        }
        publicKey = publicKey.clone();
    }

    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /**
     * Reads a verifier key.
     *
     * @throws NoteFormatException if it is not {@code name+hash+key} with a valid name, an Ed25519 key and
     *     the hash that name and key give
     */
    public static NoteKey parse(String verifierKey) throws NoteFormatException {
        // The name has no '+', the hash neither; the base64 key may.
        String[] parts = verifierKey.split("\\+", 3);
        if (parts.length != 3 || parts[1].length() != 8 || !validName(parts[0])) {
            throw new NoteFormatException("not a verifier key (name+hash+key)");
        }
        byte[] key;
        int hash;
        try {
            key = Base64.getDecoder().decode(parts[2]);
            hash = (int) Long.parseLong(parts[1], 16);
        } catch (IllegalArgumentException e) {
            throw new NoteFormatException("not a verifier key: " + e.getMessage(), e);
        }
        if (key.length != 33 || key[0] != ED25519) {
            throw new NoteFormatException("the verifier key is not an Ed25519 key");
        }
        NoteKey k = new NoteKey(parts[0], Arrays.copyOfRange(key, 1, 33));
        if (k.keyHash() != hash) {
            throw new NoteFormatException("the verifier key's hash does not match its name and key");
        }
        return k;
    }

    /** The key of an Ed25519 public key of the JDK's provider. */
    public static NoteKey of(String name, PublicKey key) {
        byte[] spki = key.getEncoded();
        if (spki.length != SPKI_PREFIX.length + 32 || !Arrays.equals(spki, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            throw new IllegalArgumentException("not an Ed25519 public key");
        }
        return new NoteKey(name, Arrays.copyOfRange(spki, SPKI_PREFIX.length, spki.length));
    }

    /** The key hash: the first four bytes of {@code SHA-256(name ‖ "\n" ‖ 0x01 ‖ key)}, big-endian. */
    public int keyHash() {
        MessageDigest md = Digests.newSha256();
        md.update(name.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
        md.update(ED25519);
        md.update(publicKey);
        return ByteBuffer.wrap(md.digest()).getInt();
    }

    /** The verifier key text, {@code name+hash+base64}. */
    public String verifierKey() {
        byte[] key = new byte[33];
        key[0] = ED25519;
        System.arraycopy(publicKey, 0, key, 1, 32);
        return name + "+" + String.format("%08x", keyHash()) + "+" + Base64.getEncoder().encodeToString(key);
    }

    /** Whether {@code signature} is this key's Ed25519 signature of {@code message}. */
    public boolean verifies(byte[] message, byte[] signature) {
        try {
            byte[] spki = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + 32);
            System.arraycopy(publicKey, 0, spki, SPKI_PREFIX.length, 32);
            PublicKey pk = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
            Signature v = Signature.getInstance("Ed25519");
            v.initVerify(pk);
            v.update(message);
            return v.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Whether a name may name a note key: not empty, valid text, no white space, no '+'. */
    static boolean validName(String name) {
        return name != null && !name.isEmpty() && name.indexOf('+') < 0 && name.codePoints().noneMatch(Character::isWhitespace)
                && StandardCharsets.UTF_8.newEncoder().canEncode(name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NoteKey k && k.name.equals(name) && Arrays.equals(k.publicKey, publicKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(publicKey));
    }

    @Override
    public String toString() {
        return verifierKey();
    }
}
