// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.testkit.GoTlogCheck;
import org.proofmode.testkit.ProcessResult;

/** Two server instances on one PostgreSQL database and one blob folder act as one server. */
class SharedPostgresTest {
    @TempDir
    Path tmp;

    @Test
    void twoInstances_shareTokensEvidenceRatesAndOneCustodyChain_onePostgresDatabase() throws Exception {
        String url = PostgresFixture.freshSchemaUrl();
        Path blobs = tmp.resolve("shared-blobs");
        ServerConfig base = ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0).withJdbcUrl(Optional.of(url))
                .withBounds(ServerConfig.DEFAULT_MAX_UPLOAD, BundleLimits.DEFAULT, Duration.ofSeconds(30), 40);
        ServerConfig config = base.withStorage(blobs, List.of());
        try (TestServer a = TestServer.start(config); TestServer b = TestServer.start(config)) {
            String token = a.token("shared");
            TestServer.awayFromMinuteBoundary(40);
            byte[] good = TestBundles.read(TestBundles.good(tmp.resolve("good-bundle")));
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<HttpResponse<String>>> puts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                TestServer s = i % 2 == 0 ? a : b;
                puts.add(pool.submit(() -> s.postZip("/api/v1/evidence", good, Optional.of(token))));
            }
            int created = 0;
            for (Future<HttpResponse<String>> f : puts) {
                HttpResponse<String> r = f.get();
                assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
                created += r.statusCode() == 201 ? 1 : 0;
            }
            assertThat(created).as("exactly one instance stores the bundle").isEqualTo(1);

            String sha = org.proofmode.media.Digests.sha256(TestBundles.good(tmp.resolve("good-bundle")));
            JsonNode item = TestServer.json(b.get("/api/v1/evidence/" + sha, Optional.of(token)));
            assertThat(item.get("custody").findValuesAsText("action")).containsOnlyOnce("INTAKE").contains("RESUBMIT").hasSize(8);
            assertThat(item.at("/custodyChain/intact").asBoolean()).as(item.get("custodyChain").toString()).isTrue();

            // Custody lines appended at once through both instances still make one chain, without a fork.
            List<Future<HttpResponse<String>>> downloads = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                TestServer s = i % 2 == 0 ? a : b;
                downloads.add(pool.submit(() -> s.get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token))));
            }
            for (Future<HttpResponse<String>> f : downloads) {
                assertThat(f.get().statusCode()).isEqualTo(200);
            }
            JsonNode after = TestServer.json(a.get("/api/v1/evidence/" + sha, Optional.of(token)));
            assertThat(after.get("custody")).hasSize(20);
            assertThat(after.at("/custodyChain/intact").asBoolean()).as(after.get("custodyChain").toString()).isTrue();
            assertThat(after.at("/custodyChain/length").asInt()).isEqualTo(20);
            assertThat(after.get("custody").findValuesAsText("prev")).doesNotHaveDuplicates();

            // Both instances integrate the log at once: one linear log of the 20 events, which Go's reference
            // reads from either instance's tiles, knowing only the log key.
            List<Future<?>> integrations = List.of(pool.submit(a.server::integrateLog), pool.submit(b.server::integrateLog),
                    pool.submit(a.server::integrateLog), pool.submit(b.server::integrateLog));
            for (Future<?> f : integrations) {
                f.get();
            }
            String key = a.get("/api/v1/log/key", Optional.empty()).body().strip();
            assertThat(b.get("/api/v1/log/key", Optional.empty()).body().strip()).isEqualTo(key);
            GoTlogCheck go = GoTlogCheck.build(Files.createDirectories(tmp.resolve("go")));
            for (TestServer s : List.of(a, b)) {
                ProcessResult r = go.remote("http://127.0.0.1:" + s.server.port(), key, null, List.of());
                assertThat(r.exitCode()).as(r.describe()).isZero();
                assertThat(r.stdout()).isEqualTo("ok 20\n");
            }
            assertThat(a.count("log_queue")).isZero();

            // The rate of one token is counted across both instances: 8 uploads, 12 downloads, 2 reads so far, limit 40.
            int ok = 0;
            for (int i = 0; i < 40; i++) {
                TestServer s = i % 2 == 0 ? a : b;
                ok += s.get("/api/v1/evidence", Optional.of(token)).statusCode() == 200 ? 1 : 0;
            }
            assertThat(ok).isEqualTo(40 - 22);
            pool.shutdown();
        }
    }
}
