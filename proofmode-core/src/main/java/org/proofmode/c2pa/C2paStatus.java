// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Objects;

/**
 * One validation status of the C2PA specification (section "Validation", "Standard status codes").
 *
 * @param code the specification's code, e.g. {@code claimSignature.validated}
 * @param outcome success, failure or informational
 * @param explanation one human sentence
 * @param url the JUMBF URI of what was checked
 */
public record C2paStatus(String code, Outcome outcome, String explanation, String url) {
    /** Validates the fields. */
    public C2paStatus {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(explanation, "explanation");
        Objects.requireNonNull(url, "url");
    }

    /** The kinds of status. */
    public enum Outcome {
        /** The check passed. */
        SUCCESS,
        /** The check failed. */
        FAILURE,
        /** Information that does not change the state. */
        INFORMATIONAL
    }

    /** The specification's status codes this reader reports. */
    public static final class Codes {
        /** The claim signature verifies with the signing credential. */
        public static final String CLAIM_SIGNATURE_VALIDATED = "claimSignature.validated";
        /** The claim signature does not verify. */
        public static final String CLAIM_SIGNATURE_MISMATCH = "claimSignature.mismatch";
        /** The signature box is missing. */
        public static final String CLAIM_SIGNATURE_MISSING = "claimSignature.missing";
        /** The signing certificate was valid when the claim was signed. */
        public static final String CLAIM_SIGNATURE_INSIDE_VALIDITY = "claimSignature.insideValidity";
        /** The signing certificate was not valid when the claim was signed. */
        public static final String SIGNING_CREDENTIAL_EXPIRED = "signingCredential.expired";
        /** The signing certificate chains to a trust anchor. */
        public static final String SIGNING_CREDENTIAL_TRUSTED = "signingCredential.trusted";
        /** The signing certificate does not chain to a trust anchor. */
        public static final String SIGNING_CREDENTIAL_UNTRUSTED = "signingCredential.untrusted";
        /** The signing certificate breaks the C2PA certificate profile. */
        public static final String SIGNING_CREDENTIAL_INVALID = "signingCredential.invalid";
        /** The time-stamp token covers this signature and its signature verifies. */
        public static final String TIMESTAMP_VALIDATED = "timeStamp.validated";
        /** The time-stamp token's authority chains to a trusted root. */
        public static final String TIMESTAMP_TRUSTED = "timeStamp.trusted";
        /** The time-stamp token's authority does not chain to a trusted root. */
        public static final String TIMESTAMP_UNTRUSTED = "timeStamp.untrusted";
        /** The time-stamp token covers other data or its signature is bad. */
        public static final String TIMESTAMP_MISMATCH = "timeStamp.mismatch";
        /** The time-stamp token cannot be parsed. */
        public static final String TIMESTAMP_MALFORMED = "timeStamp.malformed";
        /** An assertion's hash equals the claim's hashed URI. */
        public static final String HASHED_URI_MATCH = "assertion.hashedURI.match";
        /** An assertion's hash differs from the claim's hashed URI. */
        public static final String HASHED_URI_MISMATCH = "assertion.hashedURI.mismatch";
        /** A hashed URI names an assertion that is not in the store. */
        public static final String ASSERTION_MISSING = "assertion.missing";
        /** The asset's bytes hash to the data hash assertion's value. */
        public static final String DATA_HASH_MATCH = "assertion.dataHash.match";
        /** The asset's bytes do not hash to the data hash assertion's value. */
        public static final String DATA_HASH_MISMATCH = "assertion.dataHash.mismatch";
        /** The data hash assertion is malformed (exclusions out of range, no hash). */
        public static final String DATA_HASH_MALFORMED = "assertion.dataHash.malformed";
        /** The claim has no hard binding assertion. */
        public static final String HARD_BINDINGS_MISSING = "claim.hardBindings.missing";
        /** The hard binding is of a kind this reader does not check (BMFF, box hash): informational. */
        public static final String HARD_BINDING_UNCHECKED = "assertion.hardBinding.unchecked";
        /** The claim or store cannot be parsed. */
        public static final String CLAIM_MALFORMED = "claim.malformed";
        /** An ingredient's hashed URI to its manifest matches. */
        public static final String INGREDIENT_MANIFEST_VALIDATED = "ingredient.manifest.validated";
        /** An ingredient's hashed URI to its manifest does not match. */
        public static final String INGREDIENT_MANIFEST_MISMATCH = "ingredient.manifest.mismatch";

        private Codes() {}
    }
}
