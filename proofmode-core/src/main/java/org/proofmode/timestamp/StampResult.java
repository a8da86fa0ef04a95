// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import java.util.Objects;

/**
 * What one timestamp service did for one proof.
 *
 * @param sha256 the proof's media hash
 * @param kind RFC 3161 or OpenTimestamps
 * @param outcome what happened
 * @param detail one sentence for people: the time and authority, the calendars, or why it failed
 */
public record StampResult(String sha256, Kind kind, Outcome outcome, String detail) {
    /** The kinds of timestamp. */
    public enum Kind {
        /** An RFC 3161 token, {@code <h>.tsr}. */
        RFC3161,
        /** An OpenTimestamps proof, {@code <h>.ots}. */
        OTS
    }

    /** What happened. */
    public enum Outcome {
        /** A new timestamp file was written. */
        STAMPED,
        /** The proof already had this kind of timestamp; nothing was asked. */
        EXISTING,
        /** No service could be reached; the request waits in the queue. */
        QUEUED,
        /** No service could be reached; nothing was queued (upgrade). */
        UNREACHABLE,
        /** A service answered, but refused or answered something unusable. */
        FAILED,
        /** A calendar completed a pending attestation; the {@code .ots} was rewritten. */
        UPGRADED,
        /** A calendar has not anchored the commitment yet. */
        PENDING,
        /** Not asked: e.g. a calendar that is not in the settings. */
        SKIPPED
    }

    /** Validates the fields. */
    public StampResult {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }
}
