// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a reader trusts: anchors for signing credentials, anchors for time-stamp authorities, and the
 * clock that gives "now" when no trusted time-stamp does (C2PA 2.2 section 15.8.2).
 *
 * @param anchors trust anchors for signing credentials
 * @param tsaAnchors trust anchors for time-stamp authorities
 * @param clock the current time
 */
record TrustSettings(List<X509Certificate> anchors, List<X509Certificate> tsaAnchors, Clock clock) {
    /** Validates and copies the fields. */
    TrustSettings {
        anchors = List.copyOf(anchors);
        tsaAnchors = List.copyOf(tsaAnchors);
        Objects.requireNonNull(clock, "clock");
    }

    /** The current time. */
    Instant now() {
        return clock.instant();
    }
}
