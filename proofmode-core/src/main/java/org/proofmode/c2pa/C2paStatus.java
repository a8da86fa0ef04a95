// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Objects;
import java.util.Optional;

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

    /**
     * The label of the manifest this status is about, read from its URI
     * ({@code self#jumbf=/c2pa/LABEL/…}); empty when the URI names none.
     */
    public Optional<String> manifest() {
        return IngredientCheck.label(url);
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
        /** The data hash excludes ranges besides the manifest store: informational. */
        public static final String DATA_HASH_ADDITIONAL_EXCLUSIONS = "assertion.dataHash.additionalExclusions";
        /** The asset's boxes hash to the BMFF hash assertion's value. */
        public static final String BMFF_HASH_MATCH = "assertion.bmffHash.match";
        /** The asset's boxes do not hash to the BMFF hash assertion's value. */
        public static final String BMFF_HASH_MISMATCH = "assertion.bmffHash.mismatch";
        /** The BMFF hash assertion cannot be used (no hash, bad exclusion, unknown algorithm). */
        public static final String BMFF_HASH_MALFORMED = "assertion.bmffHash.malformed";
        /** The asset's boxes hash to the general box hash assertion's values ({@code c2pa.hash.boxes}). */
        public static final String BOXES_HASH_MATCH = "assertion.boxesHash.match";
        /** The asset's boxes do not hash to the general box hash assertion's values. */
        public static final String BOXES_HASH_MISMATCH = "assertion.boxesHash.mismatch";
        /** The general box hash names a box that is not the asset's next box. */
        public static final String BOXES_HASH_UNKNOWN_BOX = "assertion.boxesHash.unknownBox";
        /** The general box hash assertion cannot be used (a map without names, an unknown algorithm). */
        public static final String BOXES_HASH_MALFORMED = "assertion.boxesHash.malformed";
        /** The claim has no hard binding assertion. */
        public static final String HARD_BINDINGS_MISSING = "claim.hardBindings.missing";
        /**
         * The hard binding is of a kind this reader does not check (box hash, collection hash, Merkle maps
         * over unfragmented sample data): informational in C2PA terms, but it keeps the manifest from
         * {@link ValidationState#VALID} ({@link ValidationState#INCOMPLETE}) and is a warning in reports.
         */
        public static final String HARD_BINDING_UNCHECKED = "assertion.hardBinding.unchecked";
        /** The claim or store cannot be parsed. */
        public static final String CLAIM_MALFORMED = "claim.malformed";
        /** An ingredient's hashed URI to its manifest matches. */
        public static final String INGREDIENT_MANIFEST_VALIDATED = "ingredient.manifest.validated";
        /** An ingredient's hashed URI to its manifest does not match. */
        public static final String INGREDIENT_MANIFEST_MISMATCH = "ingredient.manifest.mismatch";

        /** An ingredient names a manifest that is not in the store. */
        public static final String INGREDIENT_MANIFEST_MISSING = "ingredient.manifest.missing";
        /** A claim names no hash algorithm, or one C2PA does not allow. */
        public static final String ALGORITHM_UNSUPPORTED = "algorithm.unsupported";
        /** An actions assertion breaks the rules for actions (C2PA 2.2 section 15.10.4.7). */
        public static final String ACTION_MALFORMED = "assertion.action.malformed";

        /** An action names an ingredient of the wrong relationship, or none that can be found. */
        public static final String ACTION_INGREDIENT_MISMATCH = "assertion.action.ingredientMismatch";

        /** A stapled OCSP response says the signing certificate was not revoked at the signing time. */
        public static final String OCSP_NOT_REVOKED = "signingCredential.ocsp.notRevoked";
        /** A stapled OCSP response says the signing certificate was revoked at or before the signing time. */
        public static final String OCSP_REVOKED = "signingCredential.ocsp.revoked";
        /** A stapled OCSP response does not know the signing certificate. */
        public static final String OCSP_UNKNOWN = "signingCredential.ocsp.unknown";
        /** A redacted ingredient manifest's claim signature matched the ingredient's {@code claimSignature}. */
        public static final String INGREDIENT_CLAIM_SIGNATURE_VALIDATED = "ingredient.claimSignature.validated";
        /** A redacted ingredient manifest's claim signature differs from the ingredient's {@code claimSignature}. */
        public static final String INGREDIENT_CLAIM_SIGNATURE_MISMATCH = "ingredient.claimSignature.mismatch";
        /** An ingredient of a redacted 2.x manifest records no {@code claimSignature}. */
        public static final String INGREDIENT_CLAIM_SIGNATURE_MISSING = "ingredient.claimSignature.missing";

        /** CAWG: an identity assertion is not the CBOR structure of CAWG identity assertion 1.x (no signer_payload…). */
        public static final String CAWG_IDENTITY_CBOR_INVALID = "cawg.identity.cbor.invalid";
        /** CAWG: an identity assertion's padding is not all zero bytes. */
        public static final String CAWG_IDENTITY_PAD_INVALID = "cawg.identity.pad.invalid";
        /** CAWG: an identity assertion's signature type is neither X.509 nor identity claims aggregation. */
        public static final String CAWG_IDENTITY_SIG_TYPE_UNKNOWN = "cawg.identity.sig_type.unknown";
        /** CAWG: an identity assertion names an assertion twice. */
        public static final String CAWG_IDENTITY_ASSERTION_DUPLICATE = "cawg.identity.assertion.duplicate";
        /** CAWG: an identity assertion names an assertion the claim lacks, or with another hash. */
        public static final String CAWG_IDENTITY_ASSERTION_MISMATCH = "cawg.identity.assertion.mismatch";
        /** CAWG: an identity assertion does not name the claim's hard binding. */
        public static final String CAWG_IDENTITY_HARD_BINDING_MISSING = "cawg.identity.hard_binding_missing";
        /** CAWG: the identity's X.509 COSE signature verifies; the message names the certificate's subject. */
        public static final String CAWG_X509_SIGNATURE_VALIDATED = "cawg.x509.signature.validated";
        /** CAWG: the identity's X.509 COSE signature does not verify or cannot be read. */
        public static final String CAWG_X509_SIGNATURE_MISMATCH = "cawg.x509.signature.mismatch";
        /** CAWG: the identity's X.509 COSE signature uses an algorithm C2PA does not allow. */
        public static final String CAWG_X509_ALGORITHM_UNSUPPORTED = "cawg.x509.algorithm.unsupported";
        /** CAWG: the identity's X.509 certificate chains to a trust anchor. */
        public static final String CAWG_X509_CREDENTIAL_TRUSTED = "cawg.x509.credential.trusted";
        /** CAWG: the identity's X.509 certificate does not chain to a trust anchor (the manifest stays valid). */
        public static final String CAWG_X509_CREDENTIAL_UNTRUSTED = "cawg.x509.credential.untrusted";
        /** CAWG: the identity claims aggregation credential is not a COSE_Sign1. */
        public static final String CAWG_ICA_INVALID_COSE_SIGN1 = "cawg.ica.invalid_cose_sign1";
        /** CAWG: the identity claims aggregation credential is not signed with EdDSA. */
        public static final String CAWG_ICA_INVALID_ALG = "cawg.ica.invalid_alg";
        /** CAWG: the credential's COSE content type is not {@code application/vc}. */
        public static final String CAWG_ICA_INVALID_CONTENT_TYPE = "cawg.ica.invalid_content_type";
        /** CAWG: the COSE payload is not a JSON verifiable credential. */
        public static final String CAWG_ICA_INVALID_VERIFIABLE_CREDENTIAL = "cawg.ica.invalid_verifiable_credential";
        /** CAWG: the credential's issuer is not a DID of a supported method. */
        public static final String CAWG_ICA_INVALID_ISSUER = "cawg.ica.invalid_issuer";
        /** CAWG: the issuer's DID cannot be resolved here ({@code did:web}: this verifier does not go online). */
        public static final String CAWG_ICA_DID_UNAVAILABLE = "cawg.ica.did_unavailable";
        /** CAWG: the issuer's DID holds no usable Ed25519 key. */
        public static final String CAWG_ICA_INVALID_DID_DOCUMENT = "cawg.ica.invalid_did_document";
        /** CAWG: the credential's signature does not verify with its issuer's key. */
        public static final String CAWG_ICA_SIGNATURE_MISMATCH = "cawg.ica.signature_mismatch";
        /** CAWG, informational: the credential's issuer is not one this verifier trusts; the message names the identities. */
        public static final String CAWG_ICA_UNTRUSTED_ISSUER = "cawg.ica.untrusted_issuer";
        /** CAWG: the credential has no {@code validFrom}. */
        public static final String CAWG_ICA_VALID_FROM_MISSING = "cawg.ica.valid_from.missing";
        /** CAWG: the credential's {@code validFrom} is in the future. */
        public static final String CAWG_ICA_VALID_FROM_INVALID = "cawg.ica.valid_from.invalid";
        /** CAWG: the credential's {@code validUntil} has passed. */
        public static final String CAWG_ICA_VALID_UNTIL_INVALID = "cawg.ica.valid_until.invalid";
        /** CAWG: the credential's {@code c2paAsset} is not the identity assertion's signer payload. */
        public static final String CAWG_ICA_SIGNER_PAYLOAD_MISMATCH = "cawg.ica.signer_payload.mismatch";

        private Codes() {}
    }
}
