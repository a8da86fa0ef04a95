// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Times as stored: fixed-width ISO-8601 UTC with milliseconds, so text order is time order. */
public final class DbTime {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private DbTime() {}

    /** Formats an instant. */
    public static String format(Instant t) {
        return FORMAT.format(t.truncatedTo(ChronoUnit.MILLIS));
    }

    /** The current time, formatted. */
    public static String now() {
        return format(Instant.now());
    }
}
