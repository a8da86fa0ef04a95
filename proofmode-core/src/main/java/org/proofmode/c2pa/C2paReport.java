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
 */
public record C2paReport(ValidationState state, AssetFormat format, String activeManifest, String generator,
        Optional<String> signer, Optional<Instant> signedAt, List<String> assertions, List<C2paStatus> statuses,
        Optional<String> proofModeSigner) {
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
