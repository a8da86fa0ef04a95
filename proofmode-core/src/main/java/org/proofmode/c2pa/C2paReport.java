// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What reading an asset's manifest store found: the state, the statuses, and a summary of the active
 * manifest.
 *
 * @param state invalid, valid or trusted
 * @param format the container
 * @param activeManifest the active manifest's label (empty if the store could not be parsed)
 * @param generator the claim generator
 * @param signer the signing certificate's subject, when the signature could be read
 * @param signedAt the time-stamp's time, when a token validated
 * @param assertions the labels of the active manifest's assertions
 * @param statuses every status, in the order the checks ran
 * @param proofModeSigner the OpenPGP fingerprint named by an intact {@code org.proofmode.proof} assertion
 * @param chain every manifest of the store, oldest first (the active one last)
 */
public record C2paReport(ValidationState state, AssetFormat format, String activeManifest, String generator,
        Optional<String> signer, Optional<Instant> signedAt, List<String> assertions, List<C2paStatus> statuses,
        Optional<String> proofModeSigner, List<Link> chain) {
    /**
     * One manifest of the store, as a person reads the chain.
     *
     * @param label the manifest's label
     * @param generator its claim generator
     * @param signer its signing certificate's subject, when the signature could be read
     * @param failures the codes of its failures, besides an untrusted signer (empty: it validated)
     * @param validated whether it was validated: the active manifest and the manifests its ingredients
     *     reach are; a manifest no ingredient names is not
     * @param recorded the failure codes an ingredient assertion of the store records for it (what its user
     *     found when the asset was used, such as a hard binding that no longer matched), besides an
     *     untrusted signer
     */
    public record Link(String label, String generator, Optional<String> signer, List<String> failures, boolean validated,
            List<String> recorded) {
        /** Validates and copies the fields. */
        public Link {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(generator, "generator");
            Objects.requireNonNull(signer, "signer");
            failures = List.copyOf(failures);
            recorded = List.copyOf(recorded);
        }
    }

    /** A report without the chain (a store that could not be parsed). */
    public C2paReport(ValidationState state, AssetFormat format, String activeManifest, String generator,
            Optional<String> signer, Optional<Instant> signedAt, List<String> assertions, List<C2paStatus> statuses,
            Optional<String> proofModeSigner) {
        this(state, format, activeManifest, generator, signer, signedAt, assertions, statuses, proofModeSigner, List.of());
    }

    /** Validates and copies the fields. */
    public C2paReport {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(activeManifest, "activeManifest");
        Objects.requireNonNull(generator, "generator");
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(signedAt, "signedAt");
        assertions = List.copyOf(assertions);
        statuses = List.copyOf(statuses);
        Objects.requireNonNull(proofModeSigner, "proofModeSigner");
        chain = List.copyOf(chain);
    }

    /** Tells whether a status with this code was reported. */
    public boolean has(String code) {
        return statuses.stream().anyMatch(s -> s.code().equals(code));
    }

    /**
     * Who vouched for the active manifest through a CAWG X.509 identity assertion whose signature verifies:
     * each certificate subject, with "(trusted)" when it chains to a trust anchor, else "(not certified by
     * an authority the verifier trusts)".
     *
     * <p>Security: the subjects come from the file; escape them where shown.
     */
    public List<String> identities() {
        List<String> out = new ArrayList<>();
        for (C2paStatus s : statuses) {
            if (s.code().equals(C2paStatus.Codes.CAWG_X509_SIGNATURE_VALIDATED) && s.explanation().startsWith(CawgIdentity.SIGNED_BY)) {
                boolean trusted = statuses.stream().anyMatch(t -> t.url().equals(s.url())
                        && t.code().equals(C2paStatus.Codes.CAWG_X509_CREDENTIAL_TRUSTED));
                out.add(s.explanation().substring(CawgIdentity.SIGNED_BY.length())
                        + (trusted ? " (trusted)" : " (not certified by an authority the verifier trusts)"));
            }
        }
        return out;
    }
}
