// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Flyway migration 3: links the custody lines written before the hash chain existed into a valid chain
 * per item (oldest first, by row id), records each item's head, then adds the unique index on
 * (item, prev) that makes a fork impossible. Works one item at a time, so memory stays small.
 */
final class CustodyChainMigration implements JavaMigration {
    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("3");
    }

    @Override
    public String getDescription() {
        return "custody chain of existing lines";
    }

    @Override
    public Integer getChecksum() {
        return 3;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        List<String> items = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT evidence_sha256 FROM custody ORDER BY evidence_sha256")) {
            while (rs.next()) {
                items.add(rs.getString(1));
            }
        }
        for (String item : items) {
            link(c, item);
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE UNIQUE INDEX custody_chain ON custody (evidence_sha256, prev)");
        }
    }

    private static void link(Connection c, String item) throws SQLException {
        record Row(long id, String at, CustodyAction action, String actor, String remote, Optional<String> verdict,
                String detail) {}
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, at, action, actor, remote, verdict, detail FROM custody "
                + "WHERE evidence_sha256 = ? ORDER BY id")) {
            ps.setString(1, item);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getLong(1), rs.getString(2), CustodyAction.valueOf(rs.getString(3)), rs.getString(4),
                            rs.getString(5), Optional.ofNullable(rs.getString(6)), rs.getString(7)));
                }
            }
        }
        String prev = CustodyChain.GENESIS;
        try (PreparedStatement ps = c.prepareStatement("UPDATE custody SET prev = ?, hash = ? WHERE id = ?")) {
            for (Row r : rows) {
                String hash = CustodyChain.hash(item, r.at(), r.action(), r.actor(), r.remote(), r.verdict(), r.detail(), prev);
                ps.setString(1, prev);
                ps.setString(2, hash);
                ps.setLong(3, r.id());
                ps.executeUpdate();
                prev = hash;
            }
        }
        CustodyLog.setHead(c, item, prev);
    }
}
