// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.time.Duration;
import java.util.Objects;

/**
 * How verification reports kept on request ({@code POST /api/v1/verify?keep=true}) are bounded.
 *
 * @param retention how long a kept report stays; expired ones are deleted
 * @param keepsPerMinute most kept reports per client address and minute
 * @param maxBytes largest report kept, in bytes of JSON
 */
public record ReportPolicy(Duration retention, int keepsPerMinute, int maxBytes) {
    /** The defaults: 90 days, 20 a minute per address, 2 MiB. */
    public static final ReportPolicy DEFAULT = new ReportPolicy(Duration.ofDays(90), 20, 2 << 20);

    /** Validates the fields. */
    public ReportPolicy {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero() || keepsPerMinute < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("report retention, rate and size must be positive");
        }
    }
}
