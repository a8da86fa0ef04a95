// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.Objects;
import java.util.Optional;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.TimeStamper;

/**
 * Content credentials for a redacted copy: who signs its C2PA manifest.
 *
 * @param signer the C2PA key and certificate chain (the local CA's device certificate, or the user's)
 * @param pgpFingerprint the device key's OpenPGP fingerprint, recorded in {@code org.proofmode.proof}
 * @param tsa a time-stamp authority for the manifest's signature, or empty
 */
public record C2paSeal(C2paSigner signer, String pgpFingerprint, Optional<TimeStamper> tsa) {
    /** Validates the fields. */
    public C2paSeal {
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(pgpFingerprint, "pgpFingerprint");
        Objects.requireNonNull(tsa, "tsa");
    }
}
