// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPKeyRing;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.util.encoders.Hex;
import org.pgpainless.PGPainless;
import org.pgpainless.key.info.KeyRingInfo;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** Reading, writing and describing OpenPGP keys and certificates. */
public final class OpenPgpKeys {
    /** Most bytes of key material we read from one input. */
    public static final int MAX_KEY_BYTES = 1 << 20;

    private OpenPgpKeys() {}

    /**
     * Reads every public certificate in armored or binary input (secret keys give their public part).
     *
     * @param bytes the key material
     * @param name what to call the input in an error message
     * @return the certificates, at least one
     * @throws ProofModeException with {@link Failure#BAD_DATA} if nothing usable can be read
     */
    public static List<PGPPublicKeyRing> readCertificates(byte[] bytes, String name) {
        if (bytes.length > MAX_KEY_BYTES) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": key file is larger than 1 MiB");
        }
        List<PGPPublicKeyRing> out = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            var collection = PGPainless.readKeyRing().keyRingCollection(in, false);
            collection.getPgpPublicKeyRingCollection().forEach(out::add);
            collection.getPgpSecretKeyRingCollection().forEach(s -> out.add(PGPainless.extractCertificate(s)));
        } catch (Exception e) {
            // PGPainless is written in Kotlin and may throw PGPException without declaring it.
            throw new ProofModeException(Failure.BAD_DATA, name + ": not an OpenPGP key (" + oneLine(e) + ")", e);
        }
        if (out.isEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": contains no OpenPGP key");
        }
        return out;
    }

    /**
     * Reads one secret key ring from armored or binary input.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the input holds no secret key
     */
    public static PGPSecretKeyRing readSecretKey(byte[] bytes, String name) {
        if (bytes.length > MAX_KEY_BYTES) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": key file is larger than 1 MiB");
        }
        try {
            PGPSecretKeyRing ring = PGPainless.readKeyRing().secretKeyRing(bytes);
            if (ring == null) {
                throw new ProofModeException(Failure.BAD_DATA, name + ": contains no OpenPGP secret key");
            }
            return ring;
        } catch (ProofModeException e) {
            throw e;
        } catch (Exception e) {
            // PGPainless is written in Kotlin and may throw PGPException without declaring it.
            throw new ProofModeException(Failure.BAD_DATA, name + ": not an OpenPGP secret key (" + oneLine(e) + ")", e);
        }
    }

    /** Armors a key ring (public or secret). */
    public static byte[] armor(PGPKeyRing ring) {
        return PGPainless.asciiArmor(ring).getBytes(StandardCharsets.UTF_8);
    }

    /** Returns the v4 fingerprint as 40 upper-case hex digits. */
    public static String fingerprint(PGPPublicKey key) {
        return Hex.toHexString(key.getFingerprint()).toUpperCase(Locale.ROOT);
    }

    /** Describes a certificate: fingerprint, algorithm, creation time, primary user ID. */
    public static KeyInfo describe(PGPKeyRing ring) {
        return describe(ring.getPublicKey(), primaryUserId(OpenPgpPolicy.inspect(ring)));
    }

    /** Describes a key whose primary user ID is known already (see {@link #primaryUserId}). */
    static KeyInfo describe(PGPPublicKey primary, String userId) {
        return new KeyInfo(fingerprint(primary), algorithmName(primary), primary.getCreationTime().toInstant(), userId);
    }

    /** The primary user ID a key's self-signatures give, else its first user ID, else {@code ""}. */
    static String primaryUserId(KeyRingInfo info) {
        return Optional.ofNullable(info.getPrimaryUserId()).orElseGet(() -> {
            Iterator<String> ids = info.getPublicKey().getUserIDs();
            return ids.hasNext() ? ids.next() : "";
        });
    }

    /**
     * Tells whether the project signs with this key's algorithm: RSA, Ed25519, or ECDSA on P-256 (the
     * algorithms whose signatures it finishes from a SHA-256 state, see {@code sign.PrehashedContentSigner}).
     */
    @SuppressWarnings("deprecation") // RSA_SIGN: old keys still use it
    public static boolean canSign(PGPPublicKey key) {
        int algo = key.getAlgorithm();
        return algo == PublicKeyAlgorithmTags.RSA_GENERAL
                || algo == PublicKeyAlgorithmTags.RSA_SIGN
                || algo == PublicKeyAlgorithmTags.EDDSA_LEGACY
                || algo == PublicKeyAlgorithmTags.Ed25519
                || algo == PublicKeyAlgorithmTags.ECDSA && key.getBitStrength() == 256;
    }

    /** A short algorithm name such as {@code ed25519}, {@code rsa4096} or {@code ecdsa256}. */
    @SuppressWarnings("deprecation") // RSA_SIGN: old keys still use it
    public static String algorithmName(PGPPublicKey key) {
        int algo = key.getAlgorithm();
        switch (algo) {
            case PublicKeyAlgorithmTags.RSA_GENERAL:
            case PublicKeyAlgorithmTags.RSA_SIGN:
                return "rsa" + key.getBitStrength();
            case PublicKeyAlgorithmTags.EDDSA_LEGACY:
            case PublicKeyAlgorithmTags.Ed25519:
                return "ed25519";
            case PublicKeyAlgorithmTags.Ed448:
                return "ed448";
            case PublicKeyAlgorithmTags.ECDSA:
                return "ecdsa" + key.getBitStrength();
            case PublicKeyAlgorithmTags.DSA:
                return "dsa" + key.getBitStrength();
            default:
                return "algorithm-" + algo;
        }
    }

    /** Instant of a key's creation. */
    public static Instant created(PGPPublicKey key) {
        return key.getCreationTime().toInstant();
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        return m.replaceAll("\\s+", " ").trim();
    }
}
