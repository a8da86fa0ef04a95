// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code GET /api/v1/evidence/{sha256}/report} records its {@code REPORT} line only once the report exists: a
 * report that cannot be made adds nothing to the item's custody log. And the report opens the stored bundle
 * under the server's configured limits, as intake did: a bundle the server took is a bundle it can report on.
 */
class ReportNotLoggedTest {
    @Test
    void report_logsNothing_whenTheReportCannotBeMade(@TempDir Path tmp) throws Exception {
        ServerConfig config = ServerConfig.defaults(tmp.resolve("server-home")).withListen("127.0.0.1", 0);
        try (TestServer srv = TestServer.start(config)) {
            String token = srv.token("desk-test");
            HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=good.zip",
                    TestBundles.read(TestBundles.good(tmp.resolve("bundle"))), Optional.of(token));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
            String sha = json(put).get("sha256").asText();
            int before = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody").size();
            // The bytes kept in the blob folder are damaged after intake: no bundle can be opened from them.
            Path blob = storedBlob(config.blobDir(), sha);
            Files.delete(blob);
            Files.write(blob, "not a zip any more".getBytes(StandardCharsets.UTF_8));

            HttpResponse<String> report = report(srv, sha, token, HttpResponse.BodyHandlers.ofString());
            assertThat(report.statusCode()).as(report.body()).isNotEqualTo(200);
            JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
            assertThat(custody.size()).isEqualTo(before);
            custody.forEach(line -> assertThat(line.get("action").asText()).isNotEqualTo("REPORT"));
        }
    }

    @Test
    void report_isMade_ofABundleOverTheDefaultLimits_onAServerWithWiderLimits(@TempDir Path tmp) throws Exception {
        ServerConfig config = ServerConfig.defaults(tmp.resolve("server-home")).withListen("127.0.0.1", 0)
                .withBounds(ServerConfig.DEFAULT_MAX_UPLOAD, new BundleLimits(3_000, 16L << 20, 200), Duration.ofSeconds(60), 100);
        try (TestServer srv = TestServer.start(config)) {
            String token = srv.token("desk-test");
            Map<String, byte[]> entries = TestBundles.entries(TestBundles.good(tmp.resolve("bundle")));
            int extra = BundleLimits.DEFAULT.maxEntries() + 100;
            for (int i = 0; i < extra; i++) {
                entries.put("extra/" + i + ".txt", ("extra " + i).getBytes(StandardCharsets.UTF_8));
            }
            HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=many.zip", TestBundles.zip(entries), Optional.of(token));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
            String sha = json(put).get("sha256").asText();

            HttpResponse<byte[]> pdf = report(srv, sha, token, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(pdf.statusCode()).as(new String(pdf.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            Path file = Files.write(tmp.resolve(sha + ".report.pdf"), pdf.body());
            ProcessResult text = ExternalTool.run(List.of(ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", file.toString(), "-"),
                    Map.of(), Duration.ofSeconds(60));
            assertThat(text.succeeded()).as(text.describe()).isTrue();
            assertThat(text.stdout()).contains("many.zip", "REPORT by desk-test");
            JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
            assertThat(custody.get(custody.size() - 1).get("action").asText()).isEqualTo("REPORT");
        }
    }

    private static <T> HttpResponse<T> report(TestServer srv, String sha, String token, HttpResponse.BodyHandler<T> body) throws Exception {
        return srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/report"))
                .header("Authorization", "Bearer " + token).build(), body);
    }

    private static Path storedBlob(Path blobDir, String sha) throws Exception {
        try (Stream<Path> files = Files.walk(blobDir)) {
            return files.filter(p -> p.getFileName().toString().equals(sha)).findFirst().orElseThrow();
        }
    }
}
