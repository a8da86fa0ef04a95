// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The verification of a bundle, a proof folder or a proved media file: an overall verdict, checks on
 * the bundle as a whole, and one report per proof inside.
 *
 * @param source what was verified (a path)
 * @param verdict the worst verdict of all proofs and bundle checks
 * @param checks checks on the bundle as a whole
 * @param proofs one report per proof
 */
public record VerificationReport(String source, Verdict verdict, List<Check> checks, List<ProofReport> proofs) {
    /** Validates and copies the fields. */
    public VerificationReport {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(verdict, "verdict");
        checks = List.copyOf(checks);
        proofs = List.copyOf(proofs);
    }

    /** Every check, bundle checks first. */
    public List<Check> allChecks() {
        List<Check> all = new ArrayList<>(checks);
        proofs.forEach(p -> all.addAll(p.checks()));
        return all;
    }

    /**
     * The files the verdict does not speak for: media no proof names, files outside every proof, files of a
     * kind this version does not check, and media missing from the bundle.
     */
    public List<String> unchecked() {
        Set<String> codes = Set.of(CheckCodes.BUNDLE_ENTRY_UNPROVED, CheckCodes.BUNDLE_ENTRY_UNKNOWN,
                CheckCodes.BUNDLE_FILE_UNCHECKED, CheckCodes.MEDIA_MISSING);
        return allChecks().stream().filter(c -> codes.contains(c.code()))
                .map(c -> c.code().equals(CheckCodes.MEDIA_MISSING) ? MEDIA_OF + c.subject() : c.subject())
                .distinct().toList();
    }

    /** How {@link #unchecked()} names the media a proof names but the bundle lacks: this, then the proof's subject. */
    public static final String MEDIA_OF = "the media of proof ";

    /** Tells whether this is a proof-only bundle: it has proofs, and every one of them lacks its media. */
    public boolean withoutMedia() {
        return !proofs.isEmpty() && proofs.stream().allMatch(p -> p.checks().stream().anyMatch(c -> c.code().equals(CheckCodes.MEDIA_MISSING)));
    }

    /** Tells whether any check has this code. */
    public boolean has(String code) {
        return allChecks().stream().anyMatch(c -> c.code().equals(code));
    }

    /** The first check with this code. */
    public Optional<Check> find(String code) {
        return allChecks().stream().filter(c -> c.code().equals(code)).findFirst();
    }
}
