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
 * A key that verifies signed notes (C2SP {@code signed-note}): a name, a signature type and an Ed25519
 * public key. Its text form, the <em>verifier key</em>, is {@code <name>+<key hash, 8 hex digits>+<base64
 * of the type byte ‖ the 32-byte key>}, where the key hash is the first four bytes of {@code SHA-256(name
 * ‖ "\n" ‖ type ‖ key)}; signatures name their key by name and key hash. Type {@link #ED25519} signs the
 * note's text; type {@link #COSIGNATURE_V1} is a witness's key (C2SP {@code tlog-cosignature}), whose
 * signature is a timestamp and an Ed25519 signature of {@code "cosignature/v1\ntime <t>\n"} and the text.
 *
 * @param name the key's name: no spaces, no '+', not empty
 * @param publicKey the 32-byte Ed25519 public key
 * @param type {@link #ED25519} or {@link #COSIGNATURE_V1}
 */
public record NoteKey(String name, byte[] publicKey, byte type) {
    /** The signature type byte of a note signer's Ed25519 key. */
    public static final byte ED25519 = 1;

    /** The signature type byte of a witness's Ed25519 cosignature key (C2SP tlog-cosignature, v1). */
    public static final byte COSIGNATURE_V1 = 4;

    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo, before the 32 key bytes. */
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    /** Validates and copies the fields. */
    public NoteKey {
        if (type != ED25519 && type != COSIGNATURE_V1) {
            throw new IllegalArgumentException("unknown signature type " + type);
        }
        if (!validName(name)) {
            throw new IllegalArgumentException("not a note key name: " + name);
        }
        if (publicKey.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key has 32 bytes, not " + publicKey.length);
        }
        publicKey = publicKey.clone();
    }

    /** A note signer's key (type {@link #ED25519}). */
    public NoteKey(String name, byte[] publicKey) {
        this(name, publicKey, ED25519);
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
        if (key.length != 33 || key[0] != ED25519 && key[0] != COSIGNATURE_V1) {
            throw new NoteFormatException("the verifier key is not an Ed25519 key (type 1) or cosignature key (type 4)");
        }
        NoteKey k = new NoteKey(parts[0], Arrays.copyOfRange(key, 1, 33), key[0]);
        if (k.keyHash() != hash) {
            throw new NoteFormatException("the verifier key's hash does not match its name and key");
        }
        return k;
    }

    /** The note signer's key of an Ed25519 public key of the JDK's provider. */
    public static NoteKey of(String name, PublicKey key) {
        return new NoteKey(name, raw(key), ED25519);
    }

    /** The witness cosignature key of an Ed25519 public key of the JDK's provider. */
    public static NoteKey cosigner(String name, PublicKey key) {
        return new NoteKey(name, raw(key), COSIGNATURE_V1);
    }

    private static byte[] raw(PublicKey key) {
        byte[] spki = key.getEncoded();
        if (spki.length != SPKI_PREFIX.length + 32 || !Arrays.equals(spki, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            throw new IllegalArgumentException("not an Ed25519 public key");
        }
        return Arrays.copyOfRange(spki, SPKI_PREFIX.length, spki.length);
    }

    /** Whether it is a witness's cosignature key. */
    public boolean cosigner() {
        return type == COSIGNATURE_V1;
    }

    /** The key hash: the first four bytes of {@code SHA-256(name ‖ "\n" ‖ type ‖ key)}, big-endian. */
    public int keyHash() {
        MessageDigest md = Digests.newSha256();
        md.update(name.getBytes(StandardCharsets.UTF_8));
        md.update((byte) '\n');
        md.update(type);
        md.update(publicKey);
        return ByteBuffer.wrap(md.digest()).getInt();
    }

    /** The verifier key text, {@code name+hash+base64}. */
    public String verifierKey() {
        byte[] key = new byte[33];
        key[0] = type;
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
        return o instanceof NoteKey k && k.name.equals(name) && Arrays.equals(k.publicKey, publicKey) && k.type == type;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(publicKey), type);
    }

    @Override
    public String toString() {
        return verifierKey();
    }
}
