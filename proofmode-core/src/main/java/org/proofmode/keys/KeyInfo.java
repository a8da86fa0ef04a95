// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.time.Instant;
import java.util.Objects;

/**
 * Public facts about a device key.
 *
 * @param fingerprint the OpenPGP v4 fingerprint, 40 upper-case hex digits
 * @param algorithm a short algorithm name such as {@code ed25519} or {@code rsa4096}
 * @param created when the key was made
 * @param userId the primary user ID
 */
public record KeyInfo(String fingerprint, String algorithm, Instant created, String userId) {
    /** Validates the fields. */
    public KeyInfo {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(userId, "userId");
    }

    /** The 64-bit key ID: the last 16 hex digits of the fingerprint. */
    public String keyId() {
        return fingerprint.substring(fingerprint.length() - 16);
    }
}
