// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

/** The outcome of reading a manifest, as C2PA names it. */
public enum ValidationState {
    /** A check failed: the signature, a hashed URI, the hard binding or the credential. */
    INVALID,
    /**
     * Signature and assertions intact, but the hard binding to the asset's content was not checked (a
     * binding kind this reader does not check): nothing shows that the content is the one signed. Never
     * reported as valid.
     */
    INCOMPLETE,
    /** Intact and well signed; the signer does not chain to a trust anchor. */
    VALID,
    /** Intact, well signed, and the signer chains to a trust anchor. */
    TRUSTED
}
