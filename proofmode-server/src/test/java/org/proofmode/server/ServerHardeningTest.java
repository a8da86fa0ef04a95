// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Samples;

/** What the server leaves on disk and in answers, and how it holds up against clients that hold it up. */
class ServerHardeningTest {
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    @TempDir
    Path tmp;

    @Test
    void metrics_countIntakesVerificationsAnswersAndTheLog_forThisMachineOnly() throws Exception {
        // The log integrates only when the test says so: on a busy machine the default second can pass before /metrics is read.
        ServerConfig config = ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0)
                .withLog(new LogPolicy(Optional.empty(), Optional.empty(), Duration.ofHours(1)));
        try (TestServer srv = TestServer.start(config)) {
            String token = srv.token("desk");
            assertThat(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(tmp.resolve("good"))), Optional.of(token))
                    .statusCode()).isEqualTo(201);
            assertThat(srv.get("/api/v1/evidence/" + "0".repeat(64), Optional.of(token)).statusCode()).isEqualTo(404);
            HttpResponse<String> m = srv.get("/metrics", Optional.empty());
            assertThat(m.statusCode()).isEqualTo(200);
            assertThat(m.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            assertThat(m.body()).contains("proofmode_intakes_total{result=\"new\"} 1", "proofmode_verifications_total{verdict=\"VALID\"} 1",
                    "proofmode_verification_seconds_count 1", "proofmode_http_answers_total{status=\"201\"} 1",
                    "proofmode_http_answers_total{status=\"404\"} 1", "proofmode_log_queued 1");
            srv.server.integrateLog();
            assertThat(srv.get("/metrics", Optional.empty()).body()).contains("proofmode_log_entries 1", "proofmode_log_queued 0");
        }
        assertThat(ServerConfig.isLoopback("127.0.0.1")).isTrue();
        assertThat(ServerConfig.isLoopback("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(ServerConfig.isLoopback("203.0.113.9")).isFalse();
        assertThat(ServerConfig.isLoopback("10.0.0.5")).isFalse();
    }

    @Test
    void ready_saysWhichDependencyFails_databaseOrBlobs() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            HttpResponse<String> ok = srv.get("/api/v1/ready", Optional.empty());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("{\"database\":\"ok\",\"blobs\":\"ok\",\"log\":\"ok\"}\n");

            // The blob folder's incoming area replaced by a file: nothing can be written there (even by root).
            Path incoming = srv.config.blobDir().resolve("incoming");
            org.proofmode.util.AtomicFiles.deleteTree(incoming);
            Files.writeString(incoming, "not a folder");
            HttpResponse<String> noBlobs = srv.get("/api/v1/ready", Optional.empty());
            assertThat(noBlobs.statusCode()).isEqualTo(503);
            assertThat(noBlobs.body()).contains("\"blobs\":\"failing\"").contains("\"database\":\"ok\"").doesNotContain(tmp.toString());
            Files.delete(incoming);

            srv.db().close();
            HttpResponse<String> noDatabase = srv.get("/api/v1/ready", Optional.empty());
            assertThat(noDatabase.statusCode()).isEqualTo(503);
            assertThat(noDatabase.body()).contains("\"database\":\"failing\"").contains("\"blobs\":\"ok\"");
            assertThat(srv.get("/api/v1/health", Optional.empty()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void start_leavesEverythingOwnerOnly_freshHomeAndStoredBundle() throws Exception {
        Path home = tmp.resolve("home");
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            String token = srv.token("desk");
            HttpResponse<String> r = srv.postZip("/api/v1/evidence", TestBundles.read(Samples.appGoodZip()), Optional.of(token));
            assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
            List<Path> all;
            try (Stream<Path> s = Files.walk(home)) {
                all = s.toList();
            }
            assertThat(all).anyMatch(p -> p.getFileName().toString().equals("evidence.db"))
                    .anyMatch(p -> p.getFileName().toString().equals("evidence.db-wal"))
                    .anyMatch(p -> p.getFileName().toString().equals(Samples.APP_MEDIA_SHA256) || p.toString().contains("/blobs/"));
            for (Path p : all) {
                assertThat(Files.getPosixFilePermissions(p)).as(p.toString()).doesNotContainAnyElementsOf(OTHERS);
            }
        }
    }

    @Test
    void start_removesLeftoverUploads_olderThanAnyLiveOne() throws Exception {
        Path home = tmp.resolve("home");
        Path incoming = Files.createDirectories(home.resolve("server/blobs/incoming"));
        Path stale = Files.writeString(incoming.resolve("upload-killed"), "half a bundle");
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Path live = Files.writeString(incoming.resolve("upload-another-instance"), "in progress");
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            assertThat(srv.server.port()).isPositive();
            assertThat(stale).doesNotExist();
            assertThat(live).exists();
        }
    }

    @Test
    void verify_neverShowsServerPaths_bundleWithoutProofRecord() throws Exception {
        byte[] zip = TestBundles.zip(Map.of("notes.txt", "no proof here".getBytes(StandardCharsets.UTF_8)));
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            HttpResponse<String> r = srv.postZip("/api/v1/verify", zip, Optional.empty());
            assertThat(r.body()).doesNotContain(tmp.toString()).doesNotContain("incoming").doesNotContain("upload-");
        }
    }

    @Test
    void jettyRefusal_isProblemWithSecurityHeaders_rawDotDotPath() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            String answer = raw(srv, "GET /a/../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            String head = answer.substring(0, Math.max(0, answer.indexOf("\r\n\r\n"))).toLowerCase(java.util.Locale.ROOT);
            assertThat(answer).startsWith("HTTP/1.1 400");
            assertThat(head).contains("content-security-policy: default-src 'none'").contains("x-content-type-options: nosniff")
                    .contains("content-type: application/problem+json");
            assertThat(answer).contains("\"status\":400").doesNotContain("<html");
        }
    }

    @Test
    void staticFiles_areThePageAndTheMapOnly_noClassesOfTheJar() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            assertThat(srv.get("/land-110m.json", Optional.empty()).statusCode()).isEqualTo(200);
            assertThat(srv.get("/NOTICE-land.txt", Optional.empty()).statusCode()).isEqualTo(200);
            for (String path : new String[] {"/PdfReport.class", "/LandMap.class", "/land/land-110m.json", "/ProofServer.class",
                "/org/proofmode/report/LandMap.class"}) {
                assertThat(srv.get(path, Optional.empty()).statusCode()).as(path).isEqualTo(404);
            }
        }
    }

    @Test
    void verify_refusesOpaqueOrigin_originNull() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            assertProblem(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/verify")).header("Origin", "null")
                    .header("Content-Type", "application/zip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(TestBundles.read(Samples.appGoodZip())))), 403, "forbidden");
        }
    }

    @Test
    void search_refusesNonFiniteBox_bboxNaN() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            String token = srv.token("desk");
            assertProblem(srv.get("/api/v1/evidence?bbox=NaN,0,1,1", Optional.of(token)), 400, "bad-request");
            assertProblem(srv.get("/api/v1/evidence?bbox=0,0,1,Infinity", Optional.of(token)), 400, "bad-request");
        }
    }

    /**
     * 260 connections from one address (127.0.0.2) that start a request body and then send one byte a
     * second: a health check from another address (127.0.0.1) is still answered within seconds.
     */
    @Test
    void health_answersOthers_slowLorisFloodFromOneAddress() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 260; i++) {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), srv.server.port()), 2000);
                    s.getOutputStream().write(("POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\n"
                            + "Content-Length: 100000\r\n\r\nPK").getBytes(StandardCharsets.US_ASCII));
                    flood.add(s);
                }
                long end = System.nanoTime() + Duration.ofSeconds(6).toNanos();
                while (System.nanoTime() < end) {
                    for (Socket s : flood) {
                        try {
                            s.getOutputStream().write('x');
                        } catch (java.io.IOException closedByServer) {
                            // the server cut it off: as it should
                        }
                    }
                    Thread.sleep(1000);
                }
                long t0 = System.nanoTime();
                String health = raw(srv, "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5_000);
                assertThat(health).matches("(?s)HTTP/1\\.1 (200|503) .*");
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
            }
        }
    }

    private static String raw(TestServer srv, String request) throws Exception {
        return raw(srv, request, 10_000);
    }

    /** Sends a request on a new connection and reads the answer; fails if none comes within {@code timeoutMs}. */
    private static String raw(TestServer srv, String request, int timeoutMs) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), srv.server.port())) {
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
