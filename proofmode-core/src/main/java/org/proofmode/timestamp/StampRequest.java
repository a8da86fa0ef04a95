// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import java.net.URI;
import java.util.List;

/**
 * Which timestamps to get for a proof.
 *
 * @param tsaUrls RFC 3161 authorities, tried in order until one answers; empty for no token
 * @param calendars OpenTimestamps calendars, all asked; empty for no OpenTimestamps proof
 */
public record StampRequest(List<URI> tsaUrls, List<URI> calendars) {
    /** Validates and copies. */
    public StampRequest {
        tsaUrls = List.copyOf(tsaUrls);
        calendars = List.copyOf(calendars);
        if (tsaUrls.isEmpty() && calendars.isEmpty()) {
            throw new IllegalArgumentException("no time-stamp authority and no calendar to ask");
        }
    }
}
