// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.Objects;

/**
 * Requests per token and minute, counted in the database so that every instance of a deployment sees the
 * same count (a fixed one-minute window).
 */
public final class RateLimiter {
    private final Database db;
    private final int perMinute;
    private final Clock clock;

    /**
     * Creates the limiter.
     *
     * @param perMinute most requests a token may make in one minute
     */
    public RateLimiter(Database db, int perMinute, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (perMinute < 1) {
            throw new IllegalArgumentException("perMinute must be positive");
        }
        this.perMinute = perMinute;
    }

    /**
     * Counts one request.
     *
     * @return 0 if allowed, else the seconds until the next window
     */
    public long hit(String tokenId) {
        long now = clock.millis();
        long window = now / 60_000 * 60_000;
        int hits = db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO rate_windows (token_id, window_start, hits) VALUES (?, ?, 1) "
                            + "ON CONFLICT (token_id, window_start) DO UPDATE SET hits = rate_windows.hits + 1 "
                            + "RETURNING hits")) {
                ps.setString(1, tokenId);
                ps.setLong(2, window);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            } finally {
                if ((now / 1000) % 60 == 0) {
                    try (PreparedStatement del = c.prepareStatement("DELETE FROM rate_windows WHERE window_start < ?")) {
                        del.setLong(1, window - 60_000);
                        del.executeUpdate();
                    }
                }
            }
        });
        return hits <= perMinute ? 0 : Math.max(1, (window + 60_000 - now + 999) / 1000);
    }
}
