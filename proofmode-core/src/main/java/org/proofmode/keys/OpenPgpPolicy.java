// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bouncycastle.openpgp.PGPKeyRing;
import org.pgpainless.algorithm.HashAlgorithm;
import org.pgpainless.key.info.KeyRingInfo;
import org.pgpainless.policy.Policy;
import org.pgpainless.util.NotationRegistry;

/**
 * The OpenPGP policy every signature and key check uses: PGPainless's default policy, the same in every
 * rule, made without parsing text. PGPainless writes the dates after which it refuses weak hash algorithms
 * (SHA-1, RIPEMD-160, MD5) as text with a time-zone name and parses them with {@code SimpleDateFormat},
 * which first builds the names of every time zone of the default locale: about 0.15 s of processor time in
 * a fresh process, and as much again compiling that code, paid by every command that checks a signature.
 * Here the same dates are instants. {@code OpenPgpPolicyTest} holds this policy equal to PGPainless's own,
 * so a new PGPainless that changes its defaults fails the build instead of drifting apart.
 *
 * <p>Callers pass it to PGPainless explicitly ({@link #inspect}, the validators, the message reader)
 * rather than leaving PGPainless to build its global one.
 */
public final class OpenPgpPolicy {
    /** 2023-02-01T00:00:00Z: SHA-1 and RIPEMD-160 certifications and revocations are accepted until then. */
    static final Date CERTIFICATIONS_WEAK_UNTIL = new Date(1_675_209_600_000L);
    /** 2013-02-01T00:00:00Z: SHA-1 and RIPEMD-160 data signatures are accepted until then. */
    static final Date DATA_WEAK_UNTIL = new Date(1_359_676_800_000L);
    /** 1997-02-01T00:00:00Z: MD5 signatures of any kind are accepted until then. */
    static final Date MD5_UNTIL = new Date(854_755_200_000L);

    private static final class Holder {
        static final Policy POLICY = make();
    }

    private OpenPgpPolicy() {}

    /** The policy; one instance per process, like PGPainless's own, and never changed. */
    public static Policy standard() {
        return Holder.POLICY;
    }

    /** What {@code PGPainless.inspectKeyRing(ring, time)} gives, under {@link #standard()}. */
    public static KeyRingInfo inspect(PGPKeyRing ring, Date time) {
        return new KeyRingInfo(ring, standard(), time);
    }

    /** What {@code PGPainless.inspectKeyRing(ring)} gives (as of now), under {@link #standard()}. */
    public static KeyRingInfo inspect(PGPKeyRing ring) {
        return inspect(ring, new Date());
    }

    private static Policy make() {
        Policy.HashAlgorithmPolicy certifications = hashes(CERTIFICATIONS_WEAK_UNTIL);
        return new Policy(
                certifications,
                certifications,
                hashes(DATA_WEAK_UNTIL),
                Policy.SymmetricKeyAlgorithmPolicy.symmetricKeyEncryptionPolicy2022(),
                Policy.SymmetricKeyAlgorithmPolicy.symmetricKeyDecryptionPolicy2022(),
                Policy.CompressionAlgorithmPolicy.anyCompressionAlgorithmPolicy(),
                Policy.PublicKeyAlgorithmPolicy.bsi2021PublicKeyAlgorithmPolicy(),
                new NotationRegistry());
    }

    /** SHA-2 and SHA-3 without end, SHA-1 and RIPEMD-160 until {@code weakUntil}, MD5 until 1997; SHA-512 by default. */
    @SuppressWarnings("deprecation") // MD5: named to be refused after 1997, as PGPainless does
    private static Policy.HashAlgorithmPolicy hashes(Date weakUntil) {
        Map<HashAlgorithm, Date> accepted = new LinkedHashMap<>();
        for (HashAlgorithm strong : new HashAlgorithm[] {
            HashAlgorithm.SHA3_512, HashAlgorithm.SHA3_256, HashAlgorithm.SHA512,
            HashAlgorithm.SHA384, HashAlgorithm.SHA256, HashAlgorithm.SHA224}) {
            accepted.put(strong, null);
        }
        accepted.put(HashAlgorithm.RIPEMD160, weakUntil);
        accepted.put(HashAlgorithm.SHA1, weakUntil);
        accepted.put(HashAlgorithm.MD5, MD5_UNTIL);
        return new Policy.HashAlgorithmPolicy(HashAlgorithm.SHA512, accepted);
    }
}
