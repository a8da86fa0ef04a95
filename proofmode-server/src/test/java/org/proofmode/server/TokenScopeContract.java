// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.ProofMode;
import org.proofmode.media.Digests;
import org.proofmode.server.store.Database;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.TokenScope;
import org.proofmode.server.store.TokenStore;
import org.proofmode.util.Hex;

/**
 * Tokens' scopes: a field device's upload token reads back only what it sent, a desk's read token reads
 * everything and sends nothing, tokens made before scopes keep every right; part of {@link ApiContract},
 * so run on every database engine.
 */
interface TokenScopeContract {
    /** The server under test. */
    TestServer srv();

    /** A folder for the test's files. */
    Path tmp();

    /** The key that signs the test bundles. */
    ProofMode signer();

    /** The JDBC URL of another fresh, empty database (a file in {@code dir} for SQLite). */
    String freshJdbcUrl(Path dir) throws Exception;

    private String token(String name, TokenScope scope) {
        return new TokenStore(srv().db()).create(name, scope).secret();
    }

    private String sent(String token, String dir, int seed) throws Exception {
        Path zip = TestBundles.located(signer(), Files.createDirectories(tmp().resolve(dir)), seed, 48.85, 2.35);
        HttpResponse<String> r = srv().postZip("/api/v1/evidence?name=" + dir + ".zip", TestBundles.read(zip), Optional.of(token));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return json(r).get("sha256").asText();
    }

    @Test
    default void uploadToken_readsOnlyWhatItSent_anotherUploadersBundle() throws Exception {
        String anna = token("field-anna", TokenScope.UPLOAD);
        String ben = token("field-ben", TokenScope.UPLOAD);
        String annas = sent(anna, "scope-anna", 4101);
        String bens = sent(ben, "scope-ben", 4102);

        for (String path : new String[] {"", "/bundle", "/receipt", "/report"}) {
            JsonNode other = assertProblem(srv().get("/api/v1/evidence/" + bens + path, Optional.of(anna)), 404, "not-found");
            assertThat(other.get("detail").asText()).isEqualTo("no evidence " + bens);
            HttpResponse<String> own = srv().get("/api/v1/evidence/" + annas + path, Optional.of(anna));
            for (int i = 0; i < 100 && path.equals("/receipt") && own.statusCode() == 404; i++) {
                Thread.sleep(100); // the receipt waits for the next checkpoint
                own = srv().get("/api/v1/evidence/" + annas + path, Optional.of(anna));
            }
            assertThat(own.statusCode()).as(path + ": " + own.body()).isEqualTo(200);
        }
        assertProblem(srv().send(HttpRequest.newBuilder(srv().uri("/api/v1/evidence/" + bens + "/reverify"))
                .header("Authorization", "Bearer " + anna).POST(HttpRequest.BodyPublishers.noBody())), 404, "not-found");
        JsonNode own = json(srv().get("/api/v1/evidence/" + annas, Optional.of(anna)));
        assertThat(own.get("sha256").asText()).isEqualTo(annas);
    }

    @Test
    default void uploadToken_refused403_searchAndLookUp() throws Exception {
        String anna = token("field-anna-search", TokenScope.UPLOAD);
        sent(anna, "scope-search", 4103);
        JsonNode p = assertProblem(srv().get("/api/v1/evidence?limit=50", Optional.of(anna)), 403, "scope");
        assertThat(p.get("detail").asText()).contains("read token");
        assertProblem(srv().get("/api/v1/notarizations?q=" + "ab".repeat(32), Optional.of(anna)), 403, "scope");
    }

    @Test
    default void uploadToken_notarizationAnswerNamesOnlyItsOwnItems_mediaAnotherSent() throws Exception {
        String anna = token("field-anna-note", TokenScope.UPLOAD);
        String desk = token("desk-note", TokenScope.READ);
        String bens = sent(token("field-ben-note", TokenScope.UPLOAD), "scope-note", 4104);
        String media = json(srv().get("/api/v1/evidence/" + bens, Optional.of(desk))).at("/proofs/0/mediaSha256").asText();
        assertThat(Hex.isSha256(media)).isTrue();
        HttpResponse<String> r = srv().send(HttpRequest.newBuilder(srv().uri("/api/v1/notarizations"))
                .header("Authorization", "Bearer " + anna).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("ProofMode sha256:" + media + " scope test", StandardCharsets.UTF_8)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(json(r).get("evidence")).as(r.body()).isEmpty();
        assertThat(json(srv().get("/api/v1/notarizations?q=" + media, Optional.of(desk))).get("evidence")).isNotEmpty();
    }

    @Test
    default void readToken_readsEverythingSendsNothing_bundlesOfTwoUploaders() throws Exception {
        String desk = token("desk-read", TokenScope.READ);
        String annas = sent(token("field-anna-read", TokenScope.UPLOAD), "scope-read-anna", 4105);
        String bens = sent(token("field-ben-read", TokenScope.UPLOAD), "scope-read-ben", 4106);
        for (String sha : new String[] {annas, bens}) {
            assertThat(srv().get("/api/v1/evidence/" + sha + "/bundle", Optional.of(desk)).statusCode()).isEqualTo(200);
        }
        assertThat(json(srv().get("/api/v1/evidence?limit=200", Optional.of(desk))).get("results").toString())
                .contains(annas, bens);
        Path zip = TestBundles.located(signer(), Files.createDirectories(tmp().resolve("scope-read-send")), 4107, 1, 2);
        assertProblem(srv().postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(desk)), 403, "scope");
        assertProblem(srv().send(HttpRequest.newBuilder(srv().uri("/api/v1/uploads")).header("Authorization", "Bearer " + desk)
                .header("Upload-Length", "10").POST(HttpRequest.BodyPublishers.noBody())), 403, "scope");
        assertThat(json(srv().get("/api/v1/token", Optional.of(desk))).get("scope").asText()).isEqualTo("read");
    }

    @Test
    default void unscopedToken_keepsEveryRight_madeBeforeScopes() throws Exception {
        String secret = "pm_" + "legacy".repeat(7);
        try (java.sql.Connection c = srv().db().connection(); java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO tokens (id, name, token_hash, created_at) VALUES ('legacy01', 'old-desk', '"
                    + Digests.sha256Hex(secret.getBytes(StandardCharsets.US_ASCII)) + "', '2025-01-01T00:00:00.000Z')");
        }
        String bens = sent(token("field-ben-legacy", TokenScope.UPLOAD), "scope-legacy", 4108);
        assertThat(srv().get("/api/v1/evidence/" + bens + "/bundle", Optional.of(secret)).statusCode()).isEqualTo(200);
        assertThat(srv().get("/api/v1/evidence?limit=1", Optional.of(secret)).statusCode()).isEqualTo(200);
        sent(secret, "scope-legacy-send", 4109);
        assertThat(json(srv().get("/api/v1/token", Optional.of(secret))).get("scope").asText()).isEqualTo("unscoped");
        assertThat(new TokenStore(srv().db()).list()).filteredOn(t -> t.id().equals("legacy01"))
                .singleElement().satisfies(t -> assertThat(t.scope()).isEmpty());
    }

    @Test
    default void migration_keepsOldTokensAndTheirItems_version2Database() throws Exception {
        String url = freshJdbcUrl(Files.createDirectories(tmp().resolve("v2-db")));
        String identity = url.startsWith("jdbc:sqlite:") ? "INTEGER PRIMARY KEY AUTOINCREMENT"
                : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
        org.flywaydb.core.Flyway.configure().dataSource(url, null, null).locations("classpath:org/proofmode/server/db/common")
                .placeholders(Map.of("identity", identity)).target("2").load().migrate();
        String secret = "pm_" + "before-scopes".repeat(3);
        String sha = "cd".repeat(32);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO tokens (id, name, token_hash, created_at) VALUES ('t-old', 'old', '"
                    + Digests.sha256Hex(secret.getBytes(StandardCharsets.US_ASCII)) + "', '2025-01-01T00:00:00.000Z')");
            st.executeUpdate("INSERT INTO evidence (sha256, name, size, verdict, report, received_at, token_id) VALUES ('"
                    + sha + "', 'old.zip', 10, 'VALID', '{}', '2025-01-01T00:00:00.000Z', 't-old')");
        }
        try (Database db = Database.open(url)) {
            TokenStore.TokenInfo t = new TokenStore(db).authenticate(secret).orElseThrow();
            assertThat(t.scope()).isEmpty();
            assertThat(t.rights()).isEqualTo(TokenScope.ADMIN);
            EvidenceStore store = new EvidenceStore(db, new org.proofmode.server.store.FileBlobStore(tmp().resolve("v2-blobs")));
            assertThat(store.sentBy(sha, "t-old")).isTrue();
            assertThat(store.sentBy(sha, "someone-else")).isFalse();
        }
    }
}
