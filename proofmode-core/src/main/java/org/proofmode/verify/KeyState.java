// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.bcpg.SignatureSubpacketTags;
import org.bouncycastle.bcpg.sig.RevocationReason;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.pgpainless.algorithm.RevocationState;
import org.pgpainless.key.info.KeyRingInfo;
import org.pgpainless.key.util.RevocationAttributes;
import org.proofmode.keys.OpenPgpPolicy;

/**
 * Whether a key could make a signature at the time the signature says it was made, as {@code sqv} judges
 * it: the primary key and the signing subkey must both be unexpired then, and neither revoked. A hard
 * revocation (no reason, "compromised", or an unknown reason) invalidates every signature; a soft one
 * ("superseded", "retired") only those made after it.
 *
 * <p>Security: the signature's creation time is the signer's claim. A thief who signs with a stolen key
 * can backdate; only a hard revocation ("compromised") protects against that, which is why that is what
 * an owner should publish when a key is stolen.
 */
final class KeyState {
    /** What was wrong with the key. */
    enum Problem {
        /** The primary key or the signing subkey had expired when the signature was made. */
        EXPIRED,
        /** The primary key or the signing subkey is revoked for this signature. */
        REVOKED
    }

    /**
     * A problem and one sentence about it.
     *
     * @param problem expired or revoked
     * @param message what expired or was revoked, and when
     */
    record Finding(Problem problem, String message) {
        Finding {
            Objects.requireNonNull(problem, "problem");
            Objects.requireNonNull(message, "message");
        }
    }

    private KeyState() {}

    /** The first problem any of the copies shows for the key {@code keyId} signing at {@code time}. */
    static Optional<Finding> judge(List<PGPPublicKeyRing> copies, long keyId, Date time) {
        for (PGPPublicKeyRing c : copies) {
            if (c.getPublicKey(keyId) == null) {
                continue;
            }
            Optional<Finding> f = CertificateFacts.revoked(c, keyId, time).or(() -> CertificateFacts.expired(c, keyId, time));
            if (f.isPresent()) {
                return f;
            }
        }
        return Optional.empty();
    }

    /** A revocation of the primary key or of the signing subkey that covers a signature made at {@code time}. */
    static Optional<Finding> revoked(PGPPublicKeyRing cert, long keyId, Date time) {
        try {
            KeyRingInfo now = OpenPgpPolicy.inspect(cert);
            RevocationState primary = now.getRevocationState();
            if (primary.isHardRevocation()) {
                return Optional.of(new Finding(Problem.REVOKED, "the signing key was revoked"
                        + reason(now.getRevocationSelfSignature()) + ": no signature by it counts"));
            }
            if (primary.isSoftRevocation() && !primary.getDate().after(time)) {
                return Optional.of(new Finding(Problem.REVOKED, "the signing key was revoked" + reason(now.getRevocationSelfSignature())
                        + " on " + primary.getDate().toInstant() + ", before this signature was made (" + time.toInstant() + ")"));
            }
            if (keyId != cert.getPublicKey().getKeyID()) {
                PGPSignature rev = now.getSubkeyRevocationSignature(keyId);
                if (rev != null) {
                    boolean hard = RevocationAttributes.Reason.isHardRevocation(reasonCode(rev));
                    if (hard || !rev.getCreationTime().after(time)) {
                        return Optional.of(new Finding(Problem.REVOKED, String.format("the signing subkey %016X was revoked", keyId)
                                + reason(rev) + (hard ? ": no signature by it counts"
                                        : " on " + rev.getCreationTime().toInstant() + ", before this signature was made (" + time.toInstant() + ")")));
                    }
                }
            }
        } catch (RuntimeException e) {
            // PGPainless could not make sense of the key; the signature check itself reports that.
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** An expiry of the primary key or of the signing subkey at or before {@code time}. */
    static Optional<Finding> expired(PGPPublicKeyRing cert, long keyId, Date time) {
        try {
            KeyRingInfo then = OpenPgpPolicy.inspect(cert, time);
            Date primary = then.getPrimaryKeyExpirationDate();
            if (primary != null && !time.before(primary)) {
                return Optional.of(new Finding(Problem.EXPIRED, "the signing key expired on " + primary.toInstant()
                        + ", before this signature was made (" + time.toInstant() + ")"));
            }
            if (keyId != cert.getPublicKey().getKeyID()) {
                Date sub = then.getSubkeyExpirationDate(keyId);
                if (sub != null && !time.before(sub)) {
                    return Optional.of(new Finding(Problem.EXPIRED, String.format("the signing subkey %016X expired on ", keyId)
                            + sub.toInstant() + ", before this signature was made (" + time.toInstant() + ")"));
                }
            }
        } catch (RuntimeException e) {
            // No self-signature valid at that time: the signature check itself rejects the signature.
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static byte reasonCode(PGPSignature revocation) {
        RevocationReason r = (RevocationReason) revocation.getHashedSubPackets().getSubpacket(SignatureSubpacketTags.REVOCATION_REASON);
        return r == null ? 0 : r.getRevocationReason();
    }

    private static String reason(PGPSignature revocation) {
        if (revocation == null) {
            return "";
        }
        byte code = reasonCode(revocation);
        String name = switch (code) {
            case 0 -> revocation.getHashedSubPackets().getSubpacket(SignatureSubpacketTags.REVOCATION_REASON) == null
                    ? "no reason given" : "no reason";
            case 1 -> "superseded";
            case 2 -> "compromised";
            case 3 -> "retired";
            default -> "reason " + (code & 0xff);
        };
        return " (" + name + ")";
    }
}
