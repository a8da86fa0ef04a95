// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.ProofMode;
import org.proofmode.server.store.CustodyAction;
import org.proofmode.server.store.CustodyChain;

/**
 * The custody log as a hash chain: linked lines, changes made in the database found, old databases
 * migrated; part of {@link ApiContract}, so run on every database engine.
 */
interface CustodyContract {
    /** The server under test. */
    TestServer srv();

    /** An upload token of it. */
    String token();

    /** A folder for the test's files. */
    Path tmp();

    /** The JDBC URL of another fresh, empty database (a file in {@code dir} for SQLite). */
    String freshJdbcUrl(Path dir) throws Exception;

    /** The key that signs the test bundles. */
    ProofMode signer();

    @Test
    default void custody_isHashChain_linesLinkedAndHeadRecorded() throws Exception {
        String sha = storedWithDownloads("chain", 30, 2);
        JsonNode item = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token())));
        JsonNode lines = item.get("custody");
        assertThat(lines).hasSize(3);
        assertThat(item.at("/custodyChain/intact").asBoolean()).as(item.toString()).isTrue();
        assertThat(item.at("/custodyChain/length").asInt()).isEqualTo(3);
        assertThat(item.at("/custodyChain/head").asText()).isEqualTo(lines.get(2).get("hash").asText());
        assertThat(item.get("custodyChain").has("brokenAt")).isFalse();
        assertThat(lines.get(0).get("prev").asText()).isEqualTo(CustodyChain.GENESIS);
        for (int i = 0; i < 3; i++) {
            JsonNode l = lines.get(i);
            if (i > 0) {
                assertThat(l.get("prev").asText()).isEqualTo(lines.get(i - 1).get("hash").asText());
            }
            assertThat(l.get("hash").asText()).isEqualTo(CustodyChain.hash(sha, l.get("at").asText(),
                    CustodyAction.valueOf(l.get("action").asText()), l.get("actor").asText(), l.get("remote").asText(),
                    Optional.ofNullable(l.get("verdict")).map(JsonNode::asText), l.get("detail").asText(), l.get("prev").asText()));
        }
    }

    @Test
    default void custody_reportsBrokenAtLine_detailEditedInDatabase() throws Exception {
        String sha = storedWithDownloads("edited", 31, 2);
        srv().update("UPDATE custody SET detail = 'bundle never downloaded' WHERE id = (SELECT MIN(id) FROM custody WHERE "
                + "evidence_sha256 = ? AND action = 'DOWNLOAD')", sha);
        JsonNode chain = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token()))).get("custodyChain");
        assertThat(chain.get("intact").asBoolean()).isFalse();
        assertThat(chain.get("brokenAt").asInt()).isEqualTo(1);
        assertThat(chain.get("problem").asText()).contains("line 2").contains("changed");
    }

    @Test
    default void custody_reportsBrokenAtLine_middleLineDeleted() throws Exception {
        String sha = storedWithDownloads("deleted", 32, 2);
        srv().update("DELETE FROM custody WHERE id = (SELECT MIN(id) FROM custody WHERE evidence_sha256 = ? AND action = 'DOWNLOAD')", sha);
        JsonNode item = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token())));
        assertThat(item.get("custody")).hasSize(2);
        assertThat(item.at("/custodyChain/intact").asBoolean()).isFalse();
        assertThat(item.at("/custodyChain/brokenAt").asInt()).isEqualTo(1);
        assertThat(item.at("/custodyChain/problem").asText()).contains("removed");
    }

    @Test
    default void custody_reportsBroken_lastLineDeleted() throws Exception {
        String sha = storedWithDownloads("truncated", 33, 1);
        srv().update("DELETE FROM custody WHERE id = (SELECT MAX(id) FROM custody WHERE evidence_sha256 = ?)", sha);
        JsonNode chain = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token()))).get("custodyChain");
        assertThat(chain.get("intact").asBoolean()).isFalse();
        assertThat(chain.get("brokenAt").asInt()).isEqualTo(1);
        assertThat(chain.get("problem").asText()).contains("end");
    }

    @Test
    default void migration_chainsExistingCustodyLines_version1Database() throws Exception {
        String url = freshJdbcUrl(Files.createDirectories(tmp().resolve("v1-db")));
        String sha = "ab".repeat(32);
        migrateToVersion1(url);
        // Rows as a version-1 server wrote them, without prev or hash:
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO tokens (id, name, token_hash, created_at) VALUES ('t1', 'old', 'h', '2025-01-01T00:00:00.000Z')");
            st.executeUpdate("INSERT INTO evidence (sha256, name, size, verdict, report, received_at, token_id) VALUES ('"
                    + sha + "', 'old.zip', 10, 'VALID', '{}', '2025-01-01T00:00:00.000Z', 't1')");
            for (String action : new String[] {"INTAKE", "DOWNLOAD", "REVERIFY"}) {
                st.executeUpdate("INSERT INTO custody (evidence_sha256, at, action, actor, remote, verdict, detail) VALUES ('"
                        + sha + "', '2025-01-01T00:00:01.000Z', '" + action + "', 'old (token t1)', '10.0.0.1', "
                        + (action.equals("DOWNLOAD") ? "NULL" : "'VALID'") + ", 'line " + action + "')");
            }
        }
        try (org.proofmode.server.store.Database db = org.proofmode.server.store.Database.open(url)) {
            org.proofmode.server.store.EvidenceStore store = new org.proofmode.server.store.EvidenceStore(db,
                    new org.proofmode.server.store.FileBlobStore(tmp().resolve("v1-blobs")));
            org.proofmode.server.store.CustodyLog log = store.custody(sha);
            assertThat(log.lines()).hasSize(3);
            assertThat(log.state().intact()).as(log.state().toString()).isTrue();
            assertThat(log.state().head()).isEqualTo(log.lines().get(2).hash());
            store.log(sha, CustodyAction.DOWNLOAD, new org.proofmode.server.store.EvidenceStore.Actor("t1", "new", "127.0.0.1"),
                    Optional.empty(), "after the upgrade");
            assertThat(store.custody(sha).state().intact()).isTrue();
            assertThat(store.custody(sha).lines().get(3).prev()).isEqualTo(log.lines().get(2).hash());
        }
    }

    /** Brings a fresh database to the version-1 schema only, as an older server left it. */
    private static void migrateToVersion1(String url) {
        String identity = url.startsWith("jdbc:sqlite:") ? "INTEGER PRIMARY KEY AUTOINCREMENT"
                : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
        org.flywaydb.core.Flyway.configure().dataSource(url, null, null).locations("classpath:org/proofmode/server/db/common")
                .placeholders(Map.of("identity", identity)).target("1").load().migrate();
    }

    private String storedWithDownloads(String dir, int seed, int downloads) throws Exception {
        Path zip = TestBundles.located(signer(), Files.createDirectories(tmp().resolve(dir)), seed, 10, 20);
        HttpResponse<String> put = srv().postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(token()));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        String sha = json(put).get("sha256").asText();
        for (int i = 0; i < downloads; i++) {
            assertThat(srv().get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token())).statusCode()).isEqualTo(200);
        }
        return sha;
    }
}
