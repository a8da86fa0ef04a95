// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and appends an item's custody lines as a hash chain ({@link CustodyChain}). Appends to one item
 * are serialised: on PostgreSQL the item row is locked ({@code SELECT … FOR UPDATE}) for the rest of the
 * transaction, on SQLite every writing transaction holds the database's write lock; besides, a unique
 * index on (item, prev) refuses a fork outright.
 *
 * @param lines the lines, oldest first
 * @param state the chain checked against its head
 */
public record CustodyLog(List<CustodyEntry> lines, CustodyChain.State state) {
    /** Validates the fields. */
    public CustodyLog {
        lines = List.copyOf(lines);
        Objects.requireNonNull(state, "state");
    }

    /** Reads an item's lines and checks them. */
    static CustodyLog read(Connection c, String sha256) throws SQLException {
        List<CustodyEntry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT at, action, actor, remote, verdict, detail, prev, hash "
                + "FROM custody WHERE evidence_sha256 = ? ORDER BY id")) {
            ps.setString(1, sha256);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new CustodyEntry(rs.getString(1), CustodyAction.valueOf(rs.getString(2)), rs.getString(3),
                            rs.getString(4), Optional.ofNullable(rs.getString(5)), rs.getString(6),
                            Objects.requireNonNullElse(rs.getString(7), ""), Objects.requireNonNullElse(rs.getString(8), "")));
                }
            }
        }
        return new CustodyLog(out, CustodyChain.check(sha256, out, head(c, sha256, false)));
    }

    /**
     * Appends a line after the item's head, inside the caller's transaction.
     *
     * @param lockRow whether to lock the item row first (PostgreSQL)
     * @return the line appended
     */
    static CustodyEntry append(Connection c, boolean lockRow, String sha256, CustodyAction action, String actor, String remote,
            Optional<String> verdict, String detail) throws SQLException {
        String prev = head(c, sha256, lockRow).orElse(CustodyChain.GENESIS);
        String at = DbTime.now();
        String hash = CustodyChain.hash(sha256, at, action, actor, remote, verdict, detail, prev);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO custody (evidence_sha256, at, action, actor, "
                + "remote, verdict, detail, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, sha256);
            ps.setString(2, at);
            ps.setString(3, action.name());
            ps.setString(4, actor);
            ps.setString(5, remote);
            ps.setString(6, verdict.orElse(null));
            ps.setString(7, detail);
            ps.setString(8, prev);
            ps.setString(9, hash);
            ps.executeUpdate();
        }
        setHead(c, sha256, hash);
        return new CustodyEntry(at, action, actor, remote, verdict, detail, prev, hash);
    }

    /** Records a new head on the item row. */
    static void setHead(Connection c, String sha256, String hash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE evidence SET custody_head = ? WHERE sha256 = ?")) {
            ps.setString(1, hash);
            ps.setString(2, sha256);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("no evidence " + sha256 + " to log custody of");
            }
        }
    }

    private static Optional<String> head(Connection c, String sha256, boolean lockRow) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT custody_head FROM evidence WHERE sha256 = ?"
                + (lockRow ? " FOR UPDATE" : ""))) {
            ps.setString(1, sha256);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
