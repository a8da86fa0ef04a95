// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of one collection. A body longer than {@code maxBytes} is cut there and its WARC record
 * marked truncated ({@code WARC-Truncated: length}); one still arriving after {@code timeout} is cut
 * ({@code time}); a chain of more than {@code maxRedirects} redirects fails the collection; media past
 * {@code maxMedia} are listed in the record as skipped, not fetched.
 *
 * @param maxBytes most bytes kept of one response's body
 * @param timeout longest time of one exchange, body included
 * @param maxRedirects most redirects followed from one address
 * @param maxMedia most media fetched from one page
 */
public record CollectLimits(long maxBytes, Duration timeout, int maxRedirects, int maxMedia) {
    /** 256 MiB, 2 minutes, 10 redirects, 100 media. */
    public static final CollectLimits DEFAULT = new CollectLimits(256L << 20, Duration.ofMinutes(2), 10, 100);

    /** Validates the bounds. */
    public CollectLimits {
        Objects.requireNonNull(timeout, "timeout");
        if (maxBytes < 1 || timeout.isNegative() || timeout.isZero() || maxRedirects < 0 || maxMedia < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
