package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.media.Digests;
import org.proofmode.server.store.CustodyAction;
import org.proofmode.server.store.CustodyChain;
import org.proofmode.testkit.Samples;
import org.proofmode.verify.ReportJson;

/**
 * The API, against a real server on loopback; run on every database engine by its subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiContract {
    Path tmp;

    TestServer srv;
    String token;
    ProofMode signer;

    /** The JDBC URL of a fresh database, or empty for SQLite in the home. */
    abstract Optional<String> jdbcUrl() throws Exception;

    /** The JDBC URL of another fresh, empty database (a file in {@code dir} for SQLite). */
    abstract String freshJdbcUrl(Path dir) throws Exception;

    @BeforeAll
    void startServer(@TempDir Path dir) throws Exception {
        tmp = dir;
        srv = TestServer.start(tmp.resolve("server-home"), jdbcUrl());
        token = srv.token("desk-test");
        signer = TestBundles.signer(tmp.resolve("signer"));
    }

    @AfterAll
    void stopServer() {
        if (srv != null) {
            srv.close();
        }
    }

    @Test
    void verify_returnsTheReportOfVerifyJson_appGoodZip() throws Exception {
        HttpResponse<String> r = srv.postZip("/api/v1/verify?name=good.zip", TestBundles.read(Samples.appGoodZip()), Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ObjectNode got = (ObjectNode) json(r);
        assertThat(got.remove("bundleSha256").asText()).isEqualTo(Digests.sha256(Samples.appGoodZip()));
        ObjectNode expected = ReportJson.toNode(ProofMode.at(srv.config.home()).verifier(List.of()).verify(Samples.appGoodZip(), Optional.empty()));
        expected.put("source", "good.zip");
        assertThat(got).isEqualTo(expected);
        assertThat(got.get("verdict").asText()).isEqualTo("VALID");
        assertThat(got.at("/proofs/0/signer/fingerprint").asText()).isEqualTo(Samples.APP_GOOD_SIGNER);
    }

    @Test
    void verify_reportsInvalid_appBadZip() throws Exception {
        HttpResponse<String> r = srv.postZip("/api/v1/verify", TestBundles.read(Samples.appBadZip()), Optional.empty());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("verdict").asText()).isEqualTo("INVALID");
        assertThat(r.body()).contains("signature.proofJson.invalid");
    }

    @Test
    void verify_readsLooseFiles_multipartForm() throws Exception {
        Map<String, byte[]> files = TestBundles.entries(Samples.appGoodZip());
        HttpResponse<String> r = srv.postFiles("/api/v1/verify", files, Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("verdict").asText()).isEqualTo("VALID");
        assertThat(json(r).get("source").asText()).isEqualTo(files.size() + " files");
    }

    @Test
    void verify_answersProblem_notAZip() throws Exception {
        JsonNode p = assertProblem(srv.postZip("/api/v1/verify", "not a zip".getBytes(), Optional.empty()), 422, "bad-bundle");
        assertThat(p.get("detail").asText()).doesNotContain(srv.config.blobDir().toString()).contains("upload.zip");
    }

    @Test
    void evidence_keepsOneCopy_sameBytesTwice() throws Exception {
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve("twice")), 1, 48.85, 2.35);
        byte[] bytes = TestBundles.read(zip);
        HttpResponse<String> first = srv.postZip("/api/v1/evidence?name=twice.zip", bytes, Optional.of(token));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        String sha = Digests.sha256(zip);
        assertThat(json(first).get("sha256").asText()).isEqualTo(sha);
        assertThat(first.headers().firstValue("Location")).hasValue("/api/v1/evidence/" + sha);
        HttpResponse<String> again = srv.postZip("/api/v1/evidence?name=twice.zip", bytes, Optional.of(token));
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("created").asBoolean()).isFalse();

        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(item.get("verdict").asText()).isEqualTo("VALID");
        assertThat(item.at("/report/verdict").asText()).isEqualTo("VALID");
        assertThat(item.at("/custody/0/action").asText()).isEqualTo("INTAKE");
        assertThat(item.at("/custody/0/actor").asText()).startsWith("desk-test");
        assertThat(item.at("/custody/0/remote").asText()).isEqualTo("127.0.0.1");
        assertThat(item.at("/custody/1/action").asText()).isEqualTo("RESUBMIT");
        assertThat(item.at("/proofs/0/latitude").asDouble()).isEqualTo(48.85);

        HttpResponse<byte[]> blob = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/bundle"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(blob.body()).isEqualTo(bytes);
        JsonNode after = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(after.at("/custody/2/action").asText()).isEqualTo("DOWNLOAD");
    }

    @Test
    void reverify_addsCustodyLine_storedBundle() throws Exception {
        HttpResponse<String> put = srv.postFiles("/api/v1/evidence", Map.of("bad.zip", TestBundles.read(Samples.appBadZip())), Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String sha = json(put).get("sha256").asText();
        assertThat(json(put).get("verdict").asText()).isEqualTo("INVALID");
        HttpResponse<String> again = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/reverify"))
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("verdict").asText()).isEqualTo("INVALID");
        JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
        JsonNode last = custody.get(custody.size() - 1);
        assertThat(last.get("action").asText()).isEqualTo("REVERIFY");
        assertThat(last.get("verdict").asText()).isEqualTo("INVALID");
    }

    @Test
    void search_findsBySignerTimeAndPlace() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("search"));
        String paris = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.located(signer, dir, 10, 48.8566, 2.3522)),
                Optional.of(token))).get("sha256").asText();
        String lagos = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.located(signer, dir, 11, 6.5244, 3.3792)),
                Optional.of(token))).get("sha256").asText();
        String fp = signer.keys().info().fingerprint();

        JsonNode bySigner = json(srv.get("/api/v1/evidence?signer=" + fp, Optional.of(token))).get("results");
        assertThat(bySigner.findValuesAsText("evidence")).contains(paris, lagos);
        JsonNode inFrance = json(srv.get("/api/v1/evidence?bbox=41,-5,51,10&signer=" + fp, Optional.of(token))).get("results");
        assertThat(inFrance.findValuesAsText("evidence")).contains(paris).doesNotContain(lagos);
        JsonNode today = json(srv.get("/api/v1/evidence?from=2000-01-01&to=2999-01-01&signer=" + fp, Optional.of(token))).get("results");
        assertThat(today.findValuesAsText("evidence")).contains(paris, lagos);
        JsonNode past = json(srv.get("/api/v1/evidence?to=2001-01-01&signer=" + fp, Optional.of(token))).get("results");
        assertThat(past).isEmpty();
        assertProblem(srv.get("/api/v1/evidence?bbox=1,2,3", Optional.of(token)), 400, "bad-request");
    }

    @Test
    void notarization_isMatched_whenMediaArrivesLater() throws Exception {
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve("sms")), 20, 1, 2);
        String media = TestBundles.entries(zip).keySet().stream().filter(n -> n.endsWith(".proof.json")).findFirst()
                .orElseThrow().substring(0, 64);
        String text = org.proofmode.prove.Notarization.text(media, signer.keys().info().fingerprint(), java.time.Instant.now());
        HttpResponse<String> sent = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/notarizations"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(text)));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
        assertThat(json(sent).get("evidence")).isEmpty();

        String sha = json(srv.postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(token))).get("sha256").asText();

        String q = java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
        JsonNode found = json(srv.get("/api/v1/notarizations?q=" + q, Optional.of(token)));
        assertThat(found.get("mediaSha256").asText()).isEqualTo(media);
        assertThat(found.get("evidence").findValuesAsText("evidence")).containsExactly(sha);
        assertThat(found.at("/notarizations/0/text").asText()).isEqualTo(text);
        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(item.get("custody").findValuesAsText("action")).contains("NOTARIZATION_MATCH");
        assertThat(item.at("/notarizations/0/text").asText()).isEqualTo(text);
    }

    @Test
    void evidence_answersNotFound_unknownHash() throws Exception {
        assertProblem(srv.get("/api/v1/evidence/" + "0".repeat(64), Optional.of(token)), 404, "not-found");
        assertProblem(srv.get("/api/v1/evidence/not-a-hash", Optional.of(token)), 400, "bad-request");
    }

    @Test
    void verify_keepsReportBehindPermalink_keepTrue() throws Exception {
        HttpResponse<String> r = srv.postZip("/api/v1/verify?keep=true&name=good.zip", TestBundles.read(Samples.appGoodZip()),
                Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ObjectNode answer = (ObjectNode) json(r);
        String id = answer.get("reportId").asText();
        assertThat(id).matches("[A-Za-z0-9_-]{22}");
        assertThat(answer.get("permalink").asText()).isEqualTo("/#/report/" + id);
        assertThat(answer.get("reportUrl").asText()).isEqualTo("/api/v1/reports/" + id);

        HttpResponse<String> got = srv.get("/api/v1/reports/" + id, Optional.empty());
        assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
        JsonNode kept = json(got);
        assertThat(kept.get("verifiedAt").asText()).isEqualTo(answer.get("verifiedAt").asText());
        assertThat(kept.get("expiresAt").asText()).isGreaterThan(kept.get("verifiedAt").asText());
        assertThat(kept.get("permalink").asText()).isEqualTo("/#/report/" + id);
        for (String f : new String[] {"reportId", "permalink", "reportUrl", "verifiedAt", "expiresAt"}) {
            answer.remove(f);
        }
        assertThat(kept.get("report")).isEqualTo(answer);
        assertThat(kept.at("/report/verdict").asText()).isEqualTo("VALID");
    }

    @Test
    void verify_keepsNothing_withoutKeep() throws Exception {
        long before = count("reports");
        HttpResponse<String> r = srv.postZip("/api/v1/verify", TestBundles.read(Samples.appGoodZip()), Optional.empty());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).has("permalink")).isFalse();
        HttpResponse<String> no = srv.postZip("/api/v1/verify?keep=false", TestBundles.read(Samples.appGoodZip()), Optional.empty());
        assertThat(json(no).has("permalink")).isFalse();
        assertThat(count("reports")).isEqualTo(before);
        assertProblem(srv.postZip("/api/v1/verify?keep=maybe", TestBundles.read(Samples.appGoodZip()), Optional.empty()), 400,
                "bad-request");
    }

    @Test
    void reports_answersNotFound_unknownOrMalformedId() throws Exception {
        assertProblem(srv.get("/api/v1/reports/AAAAAAAAAAAAAAAAAAAAAA", Optional.empty()), 404, "not-found");
        assertProblem(srv.get("/api/v1/reports/not-an-id", Optional.empty()), 404, "not-found");
        assertProblem(srv.get("/api/v1/reports/" + "A".repeat(300), Optional.empty()), 404, "not-found");
    }

    @Test
    void reports_areGone_afterRetention() throws Exception {
        ServerConfig config = ServerConfig.defaults(tmp.resolve("short-retention")).withListen("127.0.0.1", 0)
                .withJdbcUrl(Optional.of(freshJdbcUrl(Files.createDirectories(tmp.resolve("short-db")))))
                .withReports(new ReportPolicy(java.time.Duration.ofMillis(1500), 20, 1 << 20));
        try (TestServer s = TestServer.start(config)) {
            String id = json(s.postZip("/api/v1/verify?keep=true", TestBundles.read(Samples.appGoodZip()), Optional.empty()))
                    .get("reportId").asText();
            assertThat(s.get("/api/v1/reports/" + id, Optional.empty()).statusCode()).isEqualTo(200);
            Thread.sleep(1600);
            assertProblem(s.get("/api/v1/reports/" + id, Optional.empty()), 404, "not-found");
            try (java.sql.Connection c = s.db().connection(); java.sql.Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM reports")) {
                rs.next();
                assertThat(rs.getLong(1)).as("expired reports are deleted").isZero();
            }
        }
    }

    @Test
    void custody_isHashChain_linesLinkedAndHeadRecorded() throws Exception {
        String sha = storedWithDownloads("chain", 30, 2);
        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
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
    void custody_reportsBrokenAtLine_detailEditedInDatabase() throws Exception {
        String sha = storedWithDownloads("edited", 31, 2);
        sql("UPDATE custody SET detail = 'bundle never downloaded' WHERE id = (SELECT MIN(id) FROM custody WHERE "
                + "evidence_sha256 = ? AND action = 'DOWNLOAD')", sha);
        JsonNode chain = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custodyChain");
        assertThat(chain.get("intact").asBoolean()).isFalse();
        assertThat(chain.get("brokenAt").asInt()).isEqualTo(1);
        assertThat(chain.get("problem").asText()).contains("line 2").contains("changed");
    }

    @Test
    void custody_reportsBrokenAtLine_middleLineDeleted() throws Exception {
        String sha = storedWithDownloads("deleted", 32, 2);
        sql("DELETE FROM custody WHERE id = (SELECT MIN(id) FROM custody WHERE evidence_sha256 = ? AND action = 'DOWNLOAD')", sha);
        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(item.get("custody")).hasSize(2);
        assertThat(item.at("/custodyChain/intact").asBoolean()).isFalse();
        assertThat(item.at("/custodyChain/brokenAt").asInt()).isEqualTo(1);
        assertThat(item.at("/custodyChain/problem").asText()).contains("removed");
    }

    @Test
    void custody_reportsBroken_lastLineDeleted() throws Exception {
        String sha = storedWithDownloads("truncated", 33, 1);
        sql("DELETE FROM custody WHERE id = (SELECT MAX(id) FROM custody WHERE evidence_sha256 = ?)", sha);
        JsonNode chain = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custodyChain");
        assertThat(chain.get("intact").asBoolean()).isFalse();
        assertThat(chain.get("brokenAt").asInt()).isEqualTo(1);
        assertThat(chain.get("problem").asText()).contains("end");
    }

    @Test
    void migration_chainsExistingCustodyLines_version1Database() throws Exception {
        String url = freshJdbcUrl(Files.createDirectories(tmp.resolve("v1-db")));
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
                    new org.proofmode.server.store.FileBlobStore(tmp.resolve("v1-blobs")));
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
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve(dir)), seed, 10, 20);
        HttpResponse<String> put = srv.postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        String sha = json(put).get("sha256").asText();
        for (int i = 0; i < downloads; i++) {
            assertThat(srv.get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token)).statusCode()).isEqualTo(200);
        }
        return sha;
    }

    private void sql(String statement, String arg) throws Exception {
        try (java.sql.Connection c = srv.db().connection(); java.sql.PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setString(1, arg);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    private long count(String table) throws Exception {
        try (java.sql.Connection c = srv.db().connection(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
