// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The verification of one proof in a bundle.
 *
 * @param id the proof's name in the bundle: the media SHA-256, or for 2016-era proofs the media file name
 * @param sha256 the media hash the proof claims
 * @param media the media file's name in the bundle, if present
 * @param verdict this proof's verdict
 * @param checks every check run, in order
 * @param signer who signed, if any signature verified
 * @param record the latest proof record's fields
 * @param times the record's times, read from any format the app used and given as ISO-8601 UTC
 */
public record ProofReport(String id, Optional<String> sha256, Optional<String> media, Verdict verdict,
        List<Check> checks, Optional<Signer> signer, Map<String, String> record, Map<String, String> times) {
    /** Validates and copies the fields. */
    public ProofReport {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(media, "media");
        Objects.requireNonNull(verdict, "verdict");
        checks = List.copyOf(checks);
        Objects.requireNonNull(signer, "signer");
        record = Collections.unmodifiableMap(new LinkedHashMap<>(record));
        times = Collections.unmodifiableMap(new LinkedHashMap<>(times));
    }
}
