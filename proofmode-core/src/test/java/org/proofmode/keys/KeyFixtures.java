// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.S2K;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;
import org.pgpainless.PGPainless;
import org.pgpainless.key.protection.SecretKeyRingProtector;
import org.pgpainless.key.protection.UnlockSecretKey;

/** Keys and checks shared by the key store tests. */
final class KeyFixtures {
    private KeyFixtures() {}

    /** Reads {@code keys/secret.asc} as PGPainless reads a secret key. */
    static PGPSecretKeyRing secretOnDisk(DeviceKeys keys) {
        try {
            PGPSecretKeyRing ring = PGPainless.readKeyRing().secretKeyRing(Files.readAllBytes(keys.secretFile()));
            assertThat(ring).as("secret key ring in %s", keys.secretFile()).isNotNull();
            return ring;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every key in the ring that holds secret material is encrypted under an iterated and salted S2K. */
    static void assertEncrypted(PGPSecretKeyRing ring) {
        int withSecret = 0;
        for (PGPSecretKey k : ring) {
            if (k.isPrivateKeyEmpty()) {
                continue;
            }
            withSecret++;
            assertThat(k.getKeyEncryptionAlgorithm()).as("key %016X cipher", k.getKeyID())
                    .isNotEqualTo(SymmetricKeyAlgorithmTags.NULL);
            assertThat(k.getS2K()).as("key %016X S2K", k.getKeyID()).isNotNull();
            assertThat(k.getS2K().getType()).as("key %016X S2K type", k.getKeyID()).isEqualTo(S2K.SALTED_AND_ITERATED);
        }
        assertThat(withSecret).as("keys with secret material").isPositive();
    }

    /** The ciphers protecting the keys of the ring that hold secret material, e.g. {@code [AES_256]}. */
    static Set<String> ciphers(PGPSecretKeyRing ring) {
        Set<String> out = new TreeSet<>();
        for (PGPSecretKey k : ring) {
            if (!k.isPrivateKeyEmpty()) {
                int algo = k.getKeyEncryptionAlgorithm();
                out.add(algo == SymmetricKeyAlgorithmTags.AES_256 ? "AES_256"
                        : algo == SymmetricKeyAlgorithmTags.AES_128 ? "AES_128" : "algorithm " + algo);
            }
        }
        return out;
    }

    /** The file has exactly these POSIX permissions, e.g. {@code rw-------}. */
    static void assertPermissions(Path path, String expected) {
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).as("%s", path).isEqualTo(expected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An unprotected PGPainless key: certify-only primary, a signing and an encryption subkey. */
    static PGPSecretKeyRing pgpainlessKey() {
        return PGPainless.generateKeyRing().modernKeyRing("Imported <imported@example.org>");
    }

    /** The same kind of key, protected with a passphrase. */
    static PGPSecretKeyRing pgpainlessKey(String passphrase) {
        return PGPainless.generateKeyRing().modernKeyRing("Imported <imported@example.org>", passphrase);
    }

    /**
     * An unprotected 1024-bit RSA signing key. Made with BouncyCastle directly: PGPainless's policy
     * refuses to generate RSA keys this weak ({@code KeyType.RSA(RsaLength._1024)} fails).
     */
    static PGPSecretKeyRing rsa1024Key() {
        return rsaKey(1024, HashAlgorithmTags.SHA256);
    }

    /**
     * An unprotected 2048-bit RSA key whose only self-signature is made over SHA-1, as keys made before
     * about 2013 often are; SHA-1 signatures can be forged by collision, so such a binding proves nothing.
     */
    static PGPSecretKeyRing sha1OnlyKey() {
        return rsaKey(2048, HashAlgorithmTags.SHA1);
    }

    private static PGPSecretKeyRing rsaKey(int bits, int selfSignatureHash) {
        try {
            RSAKeyPairGenerator gen = new RSAKeyPairGenerator();
            gen.init(new RSAKeyGenerationParameters(BigInteger.valueOf(65537), new SecureRandom(), bits, 80));
            BcPGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.RSA_GENERAL,
                    gen.generateKeyPair(), new Date());
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setKeyFlags(true, KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
            hashed.setPreferredHashAlgorithms(false, new int[] {HashAlgorithmTags.SHA256});
            PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair, "weak",
                    new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), hashed.generate(), null,
                    new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.RSA_GENERAL, selfSignatureHash), null);
            return rings.generateSecretKeyRing();
        } catch (PGPException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Armored bytes of a key ring. */
    static byte[] armored(PGPSecretKeyRing ring) {
        return PGPainless.asciiArmor(ring).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The plaintext secret-key material of every key in the ring, as it would appear in an unencrypted
     * secret key packet (the MPI encoding).
     */
    static List<byte[]> secretMaterial(PGPSecretKeyRing ring, SecretKeyRingProtector protector) {
        List<byte[]> out = new ArrayList<>();
        try {
            for (PGPSecretKey k : ring) {
                if (!k.isPrivateKeyEmpty()) {
                    out.add(UnlockSecretKey.unlockSecretKey(k, protector).getPrivateKeyDataPacket().getEncoded());
                }
            }
        } catch (PGPException e) {
            throw new IllegalStateException(e);
        }
        assertThat(out).isNotEmpty();
        return out;
    }
}
