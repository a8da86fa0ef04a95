// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.proofmode.keys.OpenPgpKeys;

/**
 * The keys signatures are checked with: every copy of one key (the verifier's trusted copies and the
 * bundle's {@code pubkey.asc}) merged into one certificate with Bouncy Castle's key-ring join, so that a
 * revocation, an expiry or a subkey binding in any copy counts.
 *
 * <p>Security: a sender who strips the owner's revocation from the key in the bundle gains nothing, as the
 * verifier's copy brings it back. Merging adds signatures only; to keep it from ever making a key less
 * strict (a newer self-signature in one copy that lifts an expiry), {@link KeyState} also judges each copy
 * on its own, and any copy that says "expired" or "revoked" wins.
 */
final class SignerKeys {
    /**
     * One key.
     *
     * @param merged every copy joined, used to check signatures
     * @param copies the copies as given, each judged on its own as well
     * @param trusted whether any copy came from the trusted keys
     */
    record Key(PGPPublicKeyRing merged, List<PGPPublicKeyRing> copies, boolean trusted) {
        Key {
            Objects.requireNonNull(merged, "merged");
            copies = List.copyOf(copies);
        }

        String fingerprint() {
            return OpenPgpKeys.fingerprint(merged.getPublicKey());
        }
    }

    private SignerKeys() {}

    /**
     * Each key once: trusted keys first (merged with any bundle copy), then keys only the bundle has.
     *
     * <p>The trusted keys are shared by every verification a verifier runs, possibly at once on several
     * threads, and checking a signature changes Bouncy Castle's signature objects (their verifier state):
     * each call works on its own copies of them.
     */
    static List<Key> of(List<PGPPublicKeyRing> bundle, List<PGPPublicKeyRing> trusted) {
        Map<String, List<PGPPublicKeyRing>> byFingerprint = new LinkedHashMap<>();
        Map<String, Boolean> isTrusted = new LinkedHashMap<>();
        for (PGPPublicKeyRing shared : trusted) {
            PGPPublicKeyRing c = ownCopy(shared);
            String fp = OpenPgpKeys.fingerprint(c.getPublicKey());
            byFingerprint.computeIfAbsent(fp, k -> new ArrayList<>()).add(c);
            isTrusted.put(fp, true);
        }
        for (PGPPublicKeyRing c : bundle) {
            String fp = OpenPgpKeys.fingerprint(c.getPublicKey());
            byFingerprint.computeIfAbsent(fp, k -> new ArrayList<>()).add(c);
            isTrusted.putIfAbsent(fp, false);
        }
        List<Key> out = new ArrayList<>();
        byFingerprint.forEach((fp, copies) -> {
            boolean t = isTrusted.get(fp);
            out.add(new Key(merge(copies), copies, t));
        });
        return out;
    }

    private static PGPPublicKeyRing ownCopy(PGPPublicKeyRing ring) {
        try {
            return new PGPPublicKeyRing(ring.getEncoded(), new BcKeyFingerprintCalculator());
        } catch (IOException e) {
            throw new UncheckedIOException("re-reading a key already read", e);
        }
    }

    /** Every key as given, each its own only copy (nothing trusted). */
    static List<Key> untrusted(List<PGPPublicKeyRing> certs) {
        return certs.stream().map(c -> new Key(c, List.of(c), false)).toList();
    }

    /**
     * Joins the copies. A copy that cannot be joined (it should not happen for one fingerprint) is left out
     * of the merged certificate, and is still judged on its own by {@link KeyState}.
     */
    private static PGPPublicKeyRing merge(List<PGPPublicKeyRing> copies) {
        PGPPublicKeyRing merged = copies.get(0);
        for (PGPPublicKeyRing next : copies.subList(1, copies.size())) {
            merged = join(merged, next).orElse(merged);
        }
        return merged;
    }

    private static Optional<PGPPublicKeyRing> join(PGPPublicKeyRing a, PGPPublicKeyRing b) {
        try {
            return Optional.of(PGPPublicKeyRing.join(a, b));
        } catch (PGPException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
