// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.server.store.TokenStore;
import org.proofmode.media.Digests;

/** Hostile clients: bombs, traversal, oversize bodies, missing or revoked tokens, floods, other sites. */
class AbuseTest {
    /** A SHA-256 to name proof files and to search for. */
    private static final String H = Digests.sha256Hex("AbuseTest".getBytes(StandardCharsets.US_ASCII));

    @TempDir
    Path tmp;

    private byte[] good;

    /** A good bundle by a key the server does not know (VALID), made once per test. */
    private byte[] good() throws IOException {
        if (good == null) {
            good = TestBundles.read(TestBundles.good(tmp.resolve("bundle")));
        }
        return good.clone();
    }

    @Test
    void verify_refusesBundle_zipBomb() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(bytes)) {
            z.putNextEntry(new ZipEntry(H + ".proof.json"));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                z.write(zeros);
            }
            z.closeEntry();
        }
        assertThat(bytes.size()).isLessThan(200_000);
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            String token = srv.token("t");
            assertProblem(srv.postZip("/api/v1/verify", bytes.toByteArray(), Optional.empty()), 422, "bad-bundle");
            assertProblem(srv.postZip("/api/v1/evidence", bytes.toByteArray(), Optional.of(token)), 422, "bad-bundle");
            assertThat(json(srv.get("/api/v1/evidence", Optional.of(token))).get("results")).isEmpty();
            assertNoLeftovers(srv);
        }
    }

    @Test
    void verify_refusesBundle_pathTraversalEntries() throws Exception {
        Map<String, byte[]> entries = new LinkedHashMap<>(TestBundles.entries(TestBundles.good(tmp.resolve("bundle"))));
        entries.put("../../evil-" + UUID.randomUUID() + ".proof.json", "{}".getBytes());
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            assertThat(assertProblem(srv.postZip("/api/v1/verify", TestBundles.zip(entries), Optional.empty()), 422, "bad-bundle")
                    .get("detail").asText()).contains("unsafe entry name");
            assertNoLeftovers(srv);
        }
    }

    @Test
    void verify_neverWritesClientNames_traversalInFormFileNames() throws Exception {
        String name = "evil-" + UUID.randomUUID() + ".proof.json";
        Path target = tmp.resolve(name);
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            Map<String, byte[]> files = Map.of("../../../../" + tmp.toString().substring(1) + "/" + name, "{}".getBytes());
            HttpResponse<String> r = srv.postFiles("/api/v1/verify", files, Optional.empty());
            assertThat(r.statusCode()).as(r.body()).isIn(200, 422);
            assertThat(target).doesNotExist();
            try (Stream<Path> all = Files.walk(tmp)) {
                assertThat(all.filter(p -> p.getFileName().toString().equals(name))).isEmpty();
            }
            for (String path : new String[] {"/..%2F..%2F..%2Fetc%2Fpasswd", "/../../etc/passwd",
                "/api/v1/evidence/..%2F..%2Fetc%2Fpasswd", "/api/v1/evidence/..%2F..%2Fetc%2Fpasswd/bundle"}) {
                HttpResponse<String> g = srv.send(HttpRequest.newBuilder(srv.uri("/")).uri(java.net.URI.create(
                        "http://127.0.0.1:" + srv.server.port() + path)).header("Authorization", "Bearer " + srv.token("p")));
                assertThat(g.statusCode()).as(path).isBetween(400, 404);
                assertThat(g.body()).doesNotContain("root:");
            }
        }
    }

    @Test
    void upload_answersTooLarge_everyTime_clientStillSending() throws Exception {
        // The server must read (and drop) a refused body of moderate size before it answers: otherwise a
        // client still sending gets a reset connection instead of the 413 (the JDK client did, for about
        // one too-large upload in five).
        try (TestServer srv = TestServer.start(TestServer.small(tmp, 64 << 10, 1000))) {
            for (int i = 0; i < 20; i++) {
                byte[] big = new byte[(100 + i * 50) << 10];
                assertProblem(srv.postZip("/api/v1/verify", big, Optional.empty()), 413, "too-large");
                assertProblem(srv.postFiles("/api/v1/verify", Map.of("a.zip", big), Optional.empty()), 413, "too-large");
            }
            assertNoLeftovers(srv);
        }
    }

    @Test
    void upload_answersTooLarge_overTheBound() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp, 64 << 10, 100))) {
            byte[] big = new byte[100 << 10];
            assertProblem(srv.postZip("/api/v1/verify", big, Optional.empty()), 413, "too-large");
            assertProblem(srv.postFiles("/api/v1/verify", Map.of("a.zip", big), Optional.empty()), 413, "too-large");
            assertProblem(srv.postFiles("/api/v1/verify", Map.of("a.proof.json", big, "b.asc", new byte[10]), Optional.empty()),
                    413, "too-large");
            HttpResponse<String> ok = srv.postZip("/api/v1/verify", good(), Optional.empty());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertNoLeftovers(srv);
        }
    }

    @Test
    void verify_answersUnavailable_overTheTimeBound() throws Exception {
        ServerConfig config = TestServer.small(tmp, 1 << 20, 100);
        // A bound no verification can meet: a warm server verifies this small bundle in well under a millisecond.
        config = config.withBounds(config.maxUploadBytes(), config.limits(), java.time.Duration.ofNanos(1), 100);
        try (TestServer srv = TestServer.start(config)) {
            String token = srv.token("slow");
            byte[] good = good();
            assertThat(assertProblem(srv.postZip("/api/v1/verify", good, Optional.empty()), 503, "unavailable")
                    .get("detail").asText()).isEqualTo("verification took longer than 1 ns");
            assertProblem(srv.postZip("/api/v1/evidence", good, Optional.of(token)), 503, "unavailable");
            assertThat(json(srv.get("/api/v1/evidence", Optional.of(token))).get("results")).isEmpty();
            assertNoLeftovers(srv);
        }
    }

    @Test
    void evidence_answersUnauthorized_noOrMalformedToken() throws Exception {
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            byte[] good = good();
            assertProblem(srv.postZip("/api/v1/evidence", good, Optional.empty()), 401, "unauthorized");
            assertProblem(srv.postZip("/api/v1/evidence", good, Optional.of("pm_guess")), 401, "unauthorized");
            assertProblem(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence")).header("Authorization", "Basic eDp5")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(good))), 401, "unauthorized");
            assertProblem(srv.get("/api/v1/evidence", Optional.empty()), 401, "unauthorized");
            assertProblem(srv.get("/api/v1/notarizations?q=" + H, Optional.empty()), 401, "unauthorized");
        }
    }

    @Test
    void evidence_answersUnauthorized_revokedToken() throws Exception {
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            TokenStore tokens = new TokenStore(srv.db());
            TokenStore.NewToken t = tokens.create("leaver");
            byte[] good = good();
            assertThat(srv.postZip("/api/v1/evidence", good, Optional.of(t.secret())).statusCode()).isEqualTo(201);
            assertThat(tokens.revoke(t.info().id())).isTrue();
            assertProblem(srv.postZip("/api/v1/evidence", good, Optional.of(t.secret())), 401, "unauthorized");
            assertProblem(srv.get("/api/v1/evidence", Optional.of(t.secret())), 401, "unauthorized");
        }
    }

    @Test
    void verifyKeep_answersRateLimited_floodFromOneAddress() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp, 1 << 20, 100)
                .withReports(new ReportPolicy(java.time.Duration.ofDays(1), 3, 1 << 20)))) {
            byte[] good = good();
            TestServer.awayFromMinuteBoundary(10);
            for (int i = 0; i < 3; i++) {
                assertThat(json(srv.postZip("/api/v1/verify?keep=true", good, Optional.empty())).has("permalink")).isTrue();
            }
            HttpResponse<String> r = srv.postZip("/api/v1/verify?keep=true", good, Optional.empty());
            assertProblem(r, 429, "rate-limited");
            assertThat(r.headers().firstValue("Retry-After")).isPresent();
            // Verifying without keeping is not limited by it.
            assertThat(srv.postZip("/api/v1/verify", good, Optional.empty()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void verifyKeep_keepsNothing_reportOverSizeBound() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp, 1 << 20, 100)
                .withReports(new ReportPolicy(java.time.Duration.ofDays(1), 10, 500)))) {
            HttpResponse<String> r = srv.postZip("/api/v1/verify?keep=true", good(), Optional.empty());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(json(r).get("verdict").asText()).isEqualTo("VALID");
            assertThat(json(r).has("permalink")).isFalse();
            assertThat(json(r).get("permalinkRefused").asText()).contains("over the 500 bytes");
            assertThat(srv.count("reports")).isZero();
        }
    }

    @Test
    void evidence_answersRateLimited_floodFromOneToken() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp, 1 << 20, 5))) {
            String flood = srv.token("flood");
            String other = srv.token("other");
            TestServer.awayFromMinuteBoundary(5);
            for (int i = 0; i < 5; i++) {
                assertThat(srv.get("/api/v1/evidence", Optional.of(flood)).statusCode()).isEqualTo(200);
            }
            HttpResponse<String> r = srv.get("/api/v1/evidence", Optional.of(flood));
            assertProblem(r, 429, "rate-limited");
            assertThat(r.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 60L));
            assertProblem(srv.postZip("/api/v1/evidence", good(), Optional.of(flood)), 429, "rate-limited");
            assertThat(srv.get("/api/v1/evidence", Optional.of(other)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void post_answersForbidden_crossSiteRequest() throws Exception {
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            byte[] good = good();
            assertProblem(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/verify")).header("Origin", "http://evil.example")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(good))), 403, "forbidden");
            assertProblem(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/verify")).header("Sec-Fetch-Site", "cross-site")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(good))), 403, "forbidden");
            HttpResponse<String> same = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/verify"))
                    .header("Origin", "http://127.0.0.1:" + srv.server.port()).POST(HttpRequest.BodyPublishers.ofByteArray(good)));
            assertThat(same.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void responses_carrySecurityHeaders_pageApiAndErrors() throws Exception {
        try (TestServer srv = TestServer.start(tmp, Optional.empty())) {
            for (String path : new String[] {"/", "/api/v1/health", "/api/v1/evidence", "/no-such-page"}) {
                HttpResponse<String> r = srv.get(path, Optional.empty());
                assertThat(r.headers().firstValue("Content-Security-Policy")).as(path)
                        .hasValueSatisfying(v -> assertThat(v).contains("default-src 'none'", "frame-ancestors 'none'"));
                assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
                assertThat(r.headers().firstValue("Referrer-Policy")).as(path).hasValue("no-referrer");
                assertThat(r.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
            }
            assertProblem(srv.get("/no-such-page", Optional.empty()), 404, "not-found");
            assertThat(srv.get("/", Optional.empty()).headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode json(HttpResponse<String> r) throws java.io.IOException {
        return TestServer.json(r);
    }

    private static void assertNoLeftovers(TestServer srv) throws java.io.IOException {
        Path incoming = srv.config.blobDir().resolve("incoming");
        try (Stream<Path> s = Files.list(incoming)) {
            assertThat(s.filter(p -> p.getFileName().toString().startsWith("upload-"))).isEmpty();
        }
    }
}
