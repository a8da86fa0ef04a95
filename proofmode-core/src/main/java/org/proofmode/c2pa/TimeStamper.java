// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

/** Gets an RFC 3161 time-stamp for a C2PA signature ({@code sigTst2}). */
@FunctionalInterface
public interface TimeStamper {
    /**
     * Stamps a SHA-256 digest.
     *
     * @param sha256 the digest of C2PA's countersignature structure over the signature
     * @return the DER {@code TimeStampResp} (or bare token) from the authority
     */
    byte[] stamp(byte[] sha256);
}
