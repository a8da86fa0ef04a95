// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.bcpg.S2K;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.operator.PBESecretKeyDecryptor;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPDigestCalculatorProviderBuilder;
import org.bouncycastle.openpgp.operator.jcajce.JcePBESecretKeyDecryptorBuilder;
import org.pgpainless.PGPainless;
import org.pgpainless.algorithm.HashAlgorithm;
import org.pgpainless.algorithm.KeyFlag;
import org.pgpainless.algorithm.SymmetricKeyAlgorithm;
import org.pgpainless.exception.WrongPassphraseException;
import org.pgpainless.key.generation.KeySpec;
import org.pgpainless.key.generation.type.ecc.EllipticCurve;
import org.pgpainless.key.generation.type.eddsa_legacy.EdDSALegacyCurve;
import org.pgpainless.key.generation.type.rsa.RsaLength;
import org.pgpainless.key.info.KeyRingInfo;
import org.pgpainless.key.protection.KeyRingProtectionSettings;
import org.pgpainless.key.protection.SecretKeyRingProtector;
import org.pgpainless.key.util.RevocationAttributes;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The cryptographic policy of device keys, apart from where they are kept: which algorithms and strengths
 * are accepted, how keys are generated, how secret keys are protected (AES-256 with an iterated S2K, a
 * slower one for a passphrase the user chose), and how they are unlocked.
 */
final class KeyPolicy {
    static final int MIN_RSA_BITS = 2048;

    /**
     * How secret keys protected by a passphrase the user chose are encrypted: AES-256, with a salted S2K
     * iterated over SHA-256 for 8,388,608 bytes (coded count 0xD0), so every guess costs an attacker.
     */
    static final KeyRingProtectionSettings PROTECTION_CHOSEN =
            new KeyRingProtectionSettings(SymmetricKeyAlgorithm.AES_256, HashAlgorithm.SHA256, 0xD0);

    /**
     * How secret keys protected by a generated passphrase (about 150 random bits, beyond guessing) are
     * encrypted: AES-256 with a salted S2K iterated for 65,536 bytes, which keeps every command quick.
     */
    static final KeyRingProtectionSettings PROTECTION_GENERATED =
            new KeyRingProtectionSettings(SymmetricKeyAlgorithm.AES_256, HashAlgorithm.SHA256, 0x60);

    private KeyPolicy() {}

    static void assertEncrypted(PGPSecretKeyRing ring) {
        for (PGPSecretKey key : ring) {
            if (!key.isPrivateKeyEmpty() && key.getKeyEncryptionAlgorithm() == 0) {
                throw new ProofModeException(Failure.INTERNAL, "refusing to store an unencrypted secret key");
            }
        }
    }

    static PGPSecretKeyRing generate(KeyType type, Passphrase passphrase, boolean generated) {
        return generate(type, passphrase, generated, DeviceKeys.USER_ID);
    }

    static PGPSecretKeyRing generate(KeyType type, Passphrase passphrase, boolean generated, String userId) {
        org.pgpainless.key.generation.type.KeyType spec = switch (type) {
            case ED25519 -> org.pgpainless.key.generation.type.KeyType.EDDSA_LEGACY(EdDSALegacyCurve._Ed25519);
            case RSA4096 -> org.pgpainless.key.generation.type.KeyType.RSA(RsaLength._4096);
            case P256 -> org.pgpainless.key.generation.type.KeyType.ECDSA(EllipticCurve._P256);
            case RSA3072 -> org.pgpainless.key.generation.type.KeyType.RSA(RsaLength._3072);
        };
        PGPSecretKeyRing clear;
        try {
            KeySpec primary = KeySpec.getBuilder(spec, KeyFlag.CERTIFY_OTHER, KeyFlag.SIGN_DATA).build();
            // No expiry: a device key signs for as long as the device is in use; rotate to retire it.
            clear = PGPainless.buildKeyRing().setPrimaryKey(primary).addUserId(userId).setExpirationDate(null).build();
        } catch (Exception e) {
            throw new ProofModeException(Failure.INTERNAL, "key generation failed: " + OpenPgpKeys.oneLine(e), e);
        }
        // The unencrypted key exists only in memory; it is encrypted with our settings before any write.
        return reprotect(clear, Optional.empty(), passphrase, generated);
    }

    /**
     * A key ring with a new primary user ID, certified by its primary key; the user IDs it had are revoked as
     * no longer valid (a soft revocation: signatures made before stay good), so that only the new one shows.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} for a wrong passphrase
     */
    static PGPSecretKeyRing rename(PGPSecretKeyRing ring, Passphrase passphrase, String userId) {
        List<String> old = new ArrayList<>();
        ring.getPublicKey().getUserIDs().forEachRemaining(old::add);
        org.pgpainless.util.Passphrase pp = new org.pgpainless.util.Passphrase(passphrase.chars());
        try {
            SecretKeyRingProtector protector = SecretKeyRingProtector.unlockAnyKeyWith(pp);
            var editor = PGPainless.modifyKeyRing(ring).addPrimaryUserId(userId, protector);
            for (String id : old) {
                if (!id.equals(userId)) {
                    editor = editor.revokeUserId(id, protector, RevocationAttributes.createCertificateRevocation()
                            .withReason(RevocationAttributes.Reason.USER_ID_NO_LONGER_VALID).withDescription("renamed"));
                }
            }
            return editor.done();
        } catch (WrongPassphraseException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "wrong passphrase for the device key", e);
        } catch (PGPException | RuntimeException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "cannot rename the key: " + OpenPgpKeys.oneLine(e), e);
        } finally {
            pp.clear();
        }
    }

    static PGPSecretKeyRing reprotect(PGPSecretKeyRing ring, Optional<Passphrase> oldPassphrase, Passphrase newPassphrase,
            boolean generated) {
        org.pgpainless.util.Passphrase oldPp = oldPassphrase
                .map(p -> new org.pgpainless.util.Passphrase(p.chars()))
                .orElseGet(org.pgpainless.util.Passphrase::emptyPassphrase);
        org.pgpainless.util.Passphrase newPp = new org.pgpainless.util.Passphrase(newPassphrase.chars());
        try {
            return PGPainless.modifyKeyRing(ring)
                    .changePassphraseFromOldPassphrase(oldPp)
                    .withCustomSettings(generated ? PROTECTION_GENERATED : PROTECTION_CHOSEN)
                    .toNewPassphrase(newPp)
                    .done();
        } catch (WrongPassphraseException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "wrong passphrase for the device key", e);
        } catch (PGPException | RuntimeException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "cannot re-protect the key: " + OpenPgpKeys.oneLine(e), e);
        } finally {
            oldPp.clear();
            newPp.clear();
        }
    }

    /**
     * Decrypts a secret key. Bouncy Castle's own extraction, as PGPainless's {@code UnlockSecretKey} does
     * it, without the policy that it reads only for a check that is off by default: building that policy
     * costs a fresh process more than the rest of the unlock.
     */
    static PGPPrivateKey unlock(PGPSecretKey key, Passphrase passphrase) {
        org.pgpainless.util.Passphrase pp = passphrase == null
                ? org.pgpainless.util.Passphrase.emptyPassphrase()
                : new org.pgpainless.util.Passphrase(passphrase.chars());
        try {
            PBESecretKeyDecryptor decryptor;
            if (passphrase == null || key.getKeyEncryptionAlgorithm() == SymmetricKeyAlgorithmTags.NULL) {
                decryptor = null;
            } else if (isAes(key.getKeyEncryptionAlgorithm())) {
                decryptor = fastDecryptor(pp.getChars());
            } else {
                // Older ciphers (CAST5, Twofish, ...) of imported keys: BouncyCastle's own implementations.
                decryptor = SecretKeyRingProtector.unlockSingleKeyWith(pp, key).getDecryptor(key.getKeyID());
            }
            PGPPrivateKey pk;
            try {
                pk = key.extractPrivateKey(decryptor);
            } catch (PGPException e) {
                // a wrong passphrase fails the key's checksum or integrity check
                throw new ProofModeException(Failure.KEY_LOCKED, "wrong passphrase for the device key", e);
            }
            if (pk == null) {
                throw new ProofModeException(Failure.KEY_LOCKED, "cannot unlock the key: it holds no secret key material"
                        + (key.getS2K() != null && key.getS2K().getType() == S2K.GNU_DUMMY_S2K ? " (a GnuPG stub: the key is on a card)" : ""));
            }
            return pk;
        } catch (PGPException | RuntimeException e) {
            if (e instanceof ProofModeException pme) {
                throw pme;
            }
            throw new ProofModeException(Failure.KEY_LOCKED, "cannot unlock the key: " + OpenPgpKeys.oneLine(e), e);
        } finally {
            pp.clear();
        }
    }

    static boolean isAes(int algorithm) {
        return algorithm == SymmetricKeyAlgorithmTags.AES_128 || algorithm == SymmetricKeyAlgorithmTags.AES_192
                || algorithm == SymmetricKeyAlgorithmTags.AES_256;
    }

    /**
     * A decryptor that derives the key from the passphrase with the platform's SHA-256 (hardware-accelerated
     * where the CPU allows), fed in large pieces, and the platform's AES: the iterated S2K then costs
     * milliseconds, not a noticeable pause on every command.
     */
    static PBESecretKeyDecryptor fastDecryptor(char[] passphrase) throws PGPException {
        return new JcePBESecretKeyDecryptorBuilder(new BufferedDigestCalculators(new JcaPGPDigestCalculatorProviderBuilder().build()))
                .build(passphrase);
    }

    static PGPPublicKey signingKeyOf(PGPSecretKeyRing ring, String name) {
        return signingKeyOf(inspect(ring, name), name);
    }

    static KeyRingInfo inspect(PGPSecretKeyRing ring, String name) {
        try {
            return OpenPgpPolicy.inspect(ring);
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.UNSUPPORTED,
                    name + ": no valid self-signature (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
    }

    static PGPPublicKey signingKeyOf(KeyRingInfo info, String name) {
        List<PGPPublicKey> signing;
        try {
            signing = info.getSigningSubkeys();
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.UNSUPPORTED,
                    name + ": no valid self-signature (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
        if (signing.isEmpty()) {
            throw new ProofModeException(Failure.UNSUPPORTED,
                    name + ": has no valid signing key (expired, revoked, or only SHA-1 self-signatures)");
        }
        // Prefer the primary key when it signs, as the app's keys do.
        for (PGPPublicKey k : signing) {
            if (k.isMasterKey()) {
                return k;
            }
        }
        return signing.get(0);
    }

    static void checkStrength(PGPSecretKeyRing ring, String name) {
        for (PGPSecretKey key : ring) {
            PGPPublicKey pub = key.getPublicKey();
            String algo = OpenPgpKeys.algorithmName(pub);
            if ((algo.startsWith("rsa") || algo.startsWith("dsa")) && pub.getBitStrength() < MIN_RSA_BITS) {
                throw new ProofModeException(Failure.UNSUPPORTED,
                        name + ": " + algo + " is too weak; at least " + MIN_RSA_BITS + " bits are required");
            }
        }
    }
}
