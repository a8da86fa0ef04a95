// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

/** The overall result of verification, worst first. */
public enum Verdict {
    /** At least one required check failed. */
    INVALID,
    /**
     * No check failed, but one that decides whether the content is unchanged could not be run (such as a
     * content-credentials hard binding of a kind this version does not check): nothing shows that the
     * content is intact.
     */
    INCOMPLETE,
    /** Every required check passed; the signer is not one of the trusted keys. */
    VALID,
    /** Every required check passed and the signer is a trusted key. */
    TRUSTED;

    /** The worse of two verdicts. */
    public Verdict and(Verdict other) {
        return compareTo(other) <= 0 ? this : other;
    }
}
