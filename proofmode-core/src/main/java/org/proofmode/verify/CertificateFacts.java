// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.pgpainless.exception.SignatureValidationException;
import org.pgpainless.policy.Policy;
import org.pgpainless.signature.consumer.CertificateValidator;
import org.pgpainless.signature.subpackets.SignatureSubpacketsUtil;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;

/**
 * What verification learns about a certificate that the next signature by it would learn again: whether
 * its key could sign at a given time (PGPainless's certificate validation, and the expiry and revocation
 * findings of {@link KeyState}), and how it is described to the user. Each of those checks every self-signature of the certificate, which for a
 * share bundle's three or four signatures by one key, and for a desk's thousands of bundles by a few keys,
 * was most of the work of verifying (an Ed25519 verification per self-signature, per check).
 *
 * <p>Only pure functions of their inputs are remembered, keyed by everything they read: the certificate's
 * bytes (by SHA-256), the signing key's id, the signature's creation time and, for PGPainless, the signer's
 * user id and the policy object. A finding that depends on the present (a revocation in force "now") is
 * kept for {@link #NOW_TTL_NANOS} only. The signature over the data itself is never cached: it is checked
 * every time. At most {@link #MAX_ENTRIES} entries are kept, the least recently used dropped first.
 */
final class CertificateFacts {
    static final int MAX_ENTRIES = 4096;
    /** How long a finding about the present is reused: a minute. */
    static final long NOW_TTL_NANOS = 60_000_000_000L;

    private record Entry(Object value, long madeAt) {}

    private static final Map<Object, Entry> CACHE = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Entry> eldest) {
            return size() > MAX_ENTRIES;
        }
    });

    private CertificateFacts() {}

    /**
     * Each certificate object's {@link #id}, worked out once: a signature's checks ask for it four or five
     * times, and each time encoded the whole certificate again and hashed it. Keyed by the object itself
     * ({@link PGPPublicKeyRing} keeps Object's identity equality), weakly: a bundle's certificate is dropped
     * with the bundle.
     */
    private static final Map<PGPPublicKeyRing, String> IDS = Collections.synchronizedMap(new WeakHashMap<>());

    /** The certificate's identity for the cache: the SHA-256 of its bytes. */
    static String id(PGPPublicKeyRing cert) {
        String known = IDS.get(cert);
        if (known != null) {
            return known;
        }
        try {
            String id = Hex.encode(Digests.newSha256().digest(cert.getEncoded()));
            IDS.put(cert, id);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many certificate objects have their id remembered now (for tests). */
    static int idsRemembered() {
        return IDS.size();
    }

    /**
     * PGPainless's {@link CertificateValidator#validateCertificate}: whether the certificate's key {@code
     * sig} names could make it at its creation time (bound, not revoked, allowed to sign).
     *
     * @throws SignatureValidationException as PGPainless does, the same exception each time
     */
    static void validateCertificate(PGPSignature sig, PGPPublicKeyRing cert, Policy policy) throws SignatureValidationException {
        var signerUserId = SignatureSubpacketsUtil.getSignerUserID(sig);
        List<Object> key = List.of("validateCertificate", id(cert), sig.getKeyID(), sig.getCreationTime().getTime(),
                signerUserId == null ? "" : signerUserId.getID(), System.identityHashCode(policy));
        Object outcome = remember(key, Long.MAX_VALUE, () -> {
            try {
                CertificateValidator.validateCertificate(sig, cert, policy);
                return Boolean.TRUE;
            } catch (SignatureValidationException e) {
                return e;
            }
        });
        if (outcome instanceof SignatureValidationException e) {
            throw e;
        }
    }

    /** {@link KeyState#revoked}, remembered for a minute (it judges revocations in force now). */
    static Optional<KeyState.Finding> revoked(PGPPublicKeyRing cert, long keyId, Date time) {
        return remember(List.of("revoked", id(cert), keyId, time.getTime()), NOW_TTL_NANOS, () -> KeyState.revoked(cert, keyId, time));
    }

    /** {@link KeyState#expired}: the certificate as it was at {@code time}. */
    static Optional<KeyState.Finding> expired(PGPPublicKeyRing cert, long keyId, Date time) {
        return remember(List.of("expired", id(cert), keyId, time.getTime()), Long.MAX_VALUE, () -> KeyState.expired(cert, keyId, time));
    }

    /** {@link OpenPgpKeys#describe}, remembered for a minute (the primary user id is the one valid now). */
    static KeyInfo describe(PGPPublicKeyRing cert) {
        return remember(List.of("describe", id(cert)), NOW_TTL_NANOS, () -> OpenPgpKeys.describe(cert));
    }

    @SuppressWarnings("unchecked")
    private static <T> T remember(Object key, long ttlNanos, Supplier<T> compute) {
        long now = System.nanoTime();
        Entry e = CACHE.get(key);
        if (e != null && now - e.madeAt() < ttlNanos) {
            return (T) e.value();
        }
        // Computed outside the lock: two threads may both compute a value, and they get the same one.
        T value = compute.get();
        CACHE.put(key, new Entry(value, now));
        return value;
    }
}
