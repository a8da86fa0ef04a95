// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;

/**
 * {@code GET /api/v1/evidence/{sha256}/report} records its {@code REPORT} line only once the report exists: a
 * report that cannot be made adds nothing to the item's custody log. Here a server whose bundle limits are
 * wider than a report's takes a bundle of 2,100 entries, which the report cannot open.
 */
class ReportNotLoggedTest {
    @Test
    void report_logsNothing_whenTheReportCannotBeMade(@TempDir Path tmp) throws Exception {
        ServerConfig config = ServerConfig.defaults(tmp.resolve("server-home")).withListen("127.0.0.1", 0)
                .withBounds(ServerConfig.DEFAULT_MAX_UPLOAD, new BundleLimits(3_000, 16L << 20, 200), Duration.ofSeconds(60), 100);
        TestServer srv = TestServer.start(config);
        try {
            String token = srv.token("desk-test");
            Map<String, byte[]> entries = TestBundles.entries(TestBundles.good(tmp.resolve("bundle")));
            for (int i = 0; i < 2_100; i++) {
                entries.put("extra/" + i + ".txt", ("extra " + i).getBytes(StandardCharsets.UTF_8));
            }
            HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=many.zip", TestBundles.zip(entries), Optional.of(token));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
            String sha = json(put).get("sha256").asText();
            int before = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody").size();

            HttpResponse<String> report = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/report"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(report.statusCode()).as(report.body()).isNotEqualTo(200);
            JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
            assertThat(custody.size()).isEqualTo(before);
            custody.forEach(line -> assertThat(line.get("action").asText()).isNotEqualTo("REPORT"));
        } finally {
            srv.close();
        }
    }
}
