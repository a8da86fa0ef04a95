// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.Objects;

/**
 * Who signed a proof.
 *
 * @param fingerprint primary key fingerprint, 40 upper-case hex digits
 * @param algorithm e.g. {@code rsa4096}, {@code ed25519}
 * @param userId the certificate's primary user ID
 * @param trusted whether it is one of the trusted keys
 */
public record Signer(String fingerprint, String algorithm, String userId, boolean trusted) {
    /** Validates the fields. */
    public Signer {
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(userId, "userId");
    }
}
