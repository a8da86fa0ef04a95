// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofTimes;
import org.proofmode.verify.ContextSummary;
import org.proofmode.verify.ProofReport;

/**
 * What search knows of one proof in a stored bundle.
 *
 * @param evidenceSha256 the bundle
 * @param proofId the proof's name in the bundle
 * @param mediaSha256 the media hash it claims
 * @param signer the signer's fingerprint, if a signature verified
 * @param verdict the proof's verdict at intake
 * @param capturedAt the capture time from the media or record, if known
 * @param proofTime when the proof was made, if recorded
 * @param latitude recorded latitude
 * @param longitude recorded longitude
 */
public record ProofRow(String evidenceSha256, String proofId, Optional<String> mediaSha256, Optional<String> signer,
        String verdict, Optional<String> capturedAt, Optional<String> proofTime, Optional<Double> latitude,
        Optional<Double> longitude) {
    /** Validates the fields. */
    public ProofRow {
        Objects.requireNonNull(evidenceSha256, "evidenceSha256");
        Objects.requireNonNull(proofId, "proofId");
        Objects.requireNonNull(mediaSha256, "mediaSha256");
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(capturedAt, "capturedAt");
        Objects.requireNonNull(proofTime, "proofTime");
        Objects.requireNonNull(latitude, "latitude");
        Objects.requireNonNull(longitude, "longitude");
    }

    /** The row of one proof report. */
    public static ProofRow of(String evidenceSha256, ProofReport p) {
        Map<String, String> r = p.record();
        Optional<String> captured = Optional.ofNullable(ContextSummary.of(r).get("captureTime"))
                .flatMap(ProofTimes::parse).map(DbTime::format);
        Optional<String> proofTime = Optional.ofNullable(p.times().get(ProofFields.PROOF_GENERATED))
                .flatMap(ProofTimes::parse).map(DbTime::format);
        Optional<Double> lat = coordinate(r.get(ProofFields.LOCATION_LATITUDE), 90);
        Optional<Double> lon = coordinate(r.get(ProofFields.LOCATION_LONGITUDE), 180);
        boolean both = lat.isPresent() && lon.isPresent();
        return new ProofRow(evidenceSha256, p.id(), p.sha256().map(s -> s.toLowerCase(Locale.ROOT)),
                p.signer().map(s -> s.fingerprint()), p.verdict().name(), captured, proofTime,
                both ? lat : Optional.empty(), both ? lon : Optional.empty());
    }

    /** The time search orders and filters by: capture time, else proof time. */
    public Optional<Instant> when() {
        return capturedAt.or(() -> proofTime).map(Instant::parse);
    }

    private static Optional<Double> coordinate(String text, double bound) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            double v = Double.parseDouble(text.strip());
            return Double.isFinite(v) && Math.abs(v) <= bound ? Optional.of(v) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
