// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Flyway migration 6: the indexes that keep evidence search fast as an archive grows. On both engines,
 * the order every search returns (newest first, by {@link EvidenceSearch#TIME}, then bundle and proof),
 * so a page is read from an index instead of sorting every match. On PostgreSQL, a GiST index on the
 * place as a point, which a bounding box search reads ({@code <@ box}), and a time index per signer.
 * SQLite keeps its B-tree indexes (it is for one small instance).
 */
final class SearchIndexMigration implements JavaMigration {
    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("6");
    }

    @Override
    public String getDescription() {
        return "search indexes";
    }

    @Override
    public Integer getChecksum() {
        return 6;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        boolean postgres = context.getConnection().getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT)
                .contains("postgres");
        try (Statement s = context.getConnection().createStatement()) {
            s.execute("CREATE INDEX evidence_proofs_order ON evidence_proofs ((" + EvidenceSearch.TIME + ") DESC, "
                    + "evidence_sha256, proof_id)");
            s.execute("CREATE INDEX evidence_proofs_signer_order ON evidence_proofs (signer, (" + EvidenceSearch.TIME + ") DESC, "
                    + "evidence_sha256, proof_id)");
            if (postgres) {
                s.execute("CREATE INDEX evidence_proofs_place ON evidence_proofs USING gist ((" + EvidenceSearch.PLACE + ")) "
                        + "WHERE latitude IS NOT NULL AND longitude IS NOT NULL");
            }
        }
    }
}
