// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Verification reports the server made itself and kept on request, under an unguessable id: 128 random
 * bits, base64url without padding (22 characters). Only the report is kept, never the bundle. Reports
 * expire after the retention; expired ones are deleted whenever a report is kept or read.
 */
public final class ReportStore {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{22}");

    private final Database db;
    private final Duration retention;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    /**
     * A kept report.
     *
     * @param id its id
     * @param verifiedAt when the server verified it
     * @param expiresAt when it is deleted
     * @param verdict the overall verdict
     * @param report the report as JSON
     */
    public record Kept(String id, String verifiedAt, String expiresAt, String verdict, String report) {
        /** Validates the fields. */
        public Kept {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(verifiedAt, "verifiedAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(report, "report");
        }
    }

    /** Creates the store. */
    public ReportStore(Database db, Duration retention, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether a text has the shape of a report id. */
    public static boolean isId(String text) {
        return text != null && ID.matcher(text).matches();
    }

    /** Keeps a report the server has just made; returns it with its new id. */
    public Kept keep(String verdict, String reportJson) {
        byte[] bits = new byte[16];
        random.nextBytes(bits);
        Instant now = clock.instant();
        Kept k = new Kept(Base64.getUrlEncoder().withoutPadding().encodeToString(bits), DbTime.format(now),
                DbTime.format(now.plus(retention)), verdict, reportJson);
        return db.inTransaction(c -> {
            purge(c, now);
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO reports (id, verified_at, expires_at, verdict, report) VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, k.id());
                ps.setString(2, k.verifiedAt());
                ps.setString(3, k.expiresAt());
                ps.setString(4, k.verdict());
                ps.setString(5, k.report());
                ps.executeUpdate();
            }
            return k;
        });
    }

    /** A kept report that has not expired. */
    public Optional<Kept> find(String id) {
        if (!isId(id)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return db.inTransaction(c -> {
            purge(c, now);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, verified_at, expires_at, verdict, report FROM reports WHERE id = ? AND expires_at > ?")) {
                ps.setString(1, id);
                ps.setString(2, DbTime.format(now));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new Kept(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getString(4), rs.getString(5))) : Optional.empty();
                }
            }
        });
    }

    private static void purge(Connection c, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM reports WHERE expires_at <= ?")) {
            ps.setString(1, DbTime.format(now));
            ps.executeUpdate();
        }
    }
}
