// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.RawClient.loopback;
import static org.proofmode.server.RawClient.status;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Samples;

/**
 * The server's bounds on bodies, rates and counts at ten times their value: one request after another from
 * one address, and at once from many (each request on a new connection from its own loopback address).
 */
class RequestBoundsTest {
    private static final int MAX_UPLOAD = 64 << 10;

    @TempDir
    Path tmp;

    @Test
    void verify_answersTooLarge_bodyTenTimesTheBoundOneAfterAnotherAndAtOnceFromManyAddresses() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), MAX_UPLOAD, 1000))) {
            byte[] big = new byte[10 * MAX_UPLOAD];
            String head = "POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\n";
            for (int i = 0; i < 10; i++) {
                assertThat(status(RawClient.send(loopback(2), srv.server.port(), head, big, 30_000))).isEqualTo(413);
            }
            List<Integer> atOnce = atOnce(30, 30, i -> () -> status(RawClient.send(loopback(10 + i % 10), srv.server.port(), head, big, 30_000)));
            assertThat(atOnce).hasSize(30).containsOnly(413);
            String good = RawClient.send(loopback(2), srv.server.port(), head, Files.readAllBytes(Samples.appGoodZip()), 30_000);
            assertThat(status(good)).as(good).isEqualTo(200);
            try (Stream<Path> left = Files.list(srv.config.blobDir().resolve("incoming"))) {
                assertThat(left.filter(Files::isRegularFile).toList()).isEmpty();
            }
        }
    }

    @Test
    void resumableUpload_answersTooLarge_lengthAndBodyTenTimesTheBound() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), MAX_UPLOAD, 1000))) {
            String token = srv.token("desk");
            String create = "POST /api/v1/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nAuthorization: Bearer " + token
                    + "\r\nUpload-Length: ";
            for (int i = 0; i < 10; i++) {
                assertThat(status(RawClient.send(loopback(2), srv.server.port(), create + 10 * MAX_UPLOAD + "\r\n", new byte[0], 30_000)))
                        .isEqualTo(413);
            }
            String created = RawClient.send(loopback(2), srv.server.port(), create + MAX_UPLOAD + "\r\n", new byte[0], 30_000);
            assertThat(status(created)).as(created).isEqualTo(201);
            String location = created.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("location:"))
                    .findFirst().orElseThrow().substring("location:".length()).trim();
            String patch = "PATCH " + location + " HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nAuthorization: Bearer " + token
                    + "\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n";
            String answer = RawClient.send(loopback(2), srv.server.port(), patch, new byte[10 * MAX_UPLOAD], 30_000);
            assertThat(status(answer)).as(answer).isEqualTo(413);
        }
    }

    @Test
    void notarize_answersTooLarge_textTenTimesTheOneMibBound() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            String token = srv.token("desk");
            byte[] text = "a".repeat(10 << 20).getBytes(StandardCharsets.US_ASCII);
            String head = "POST /api/v1/notarizations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nAuthorization: Bearer "
                    + token + "\r\n";
            for (int i = 0; i < 3; i++) {
                assertThat(status(RawClient.send(loopback(2), srv.server.port(), head, text, 30_000))).isEqualTo(413);
            }
            assertThat(srv.count("notarizations")).isZero();
            assertThat(RawClient.health(loopback(2), srv.server.port(), 10_000)).isEqualTo(200);
        }
    }

    @Test
    void evidence_allowsExactlyTheRate_tenTimesTheRateOneAfterAnotherAndAtOnceFromManyAddresses() throws Exception {
        int rate = 5;
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), MAX_UPLOAD, rate))) {
            String one = srv.token("one");
            String many = srv.token("many");
            TestServer.awayFromMinuteBoundary(40);
            List<Integer> inTurn = new ArrayList<>();
            for (int i = 0; i < 10 * rate; i++) {
                inTurn.add(list(srv, loopback(2), one));
            }
            assertThat(inTurn.subList(0, rate)).containsOnly(200);
            assertThat(inTurn.subList(rate, 10 * rate)).containsOnly(429);
            List<Integer> atOnce = atOnce(10 * rate, 10 * rate, i -> () -> list(srv, loopback(10 + i % 10), many));
            assertThat(atOnce.stream().filter(s -> s == 200).count()).isEqualTo(rate);
            assertThat(atOnce.stream().filter(s -> s == 429).count()).isEqualTo(9L * rate);
        }
    }

    @Test
    void verifyKeep_keepsExactlyTheRatePerAddress_tenTimesTheRateOneAfterAnotherAndAtOnceFromManyAddresses() throws Exception {
        int rate = 3;
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), 1 << 20, 1000)
                .withReports(new ReportPolicy(Duration.ofDays(1), rate, 1 << 20)))) {
            byte[] good = Files.readAllBytes(Samples.appGoodZip());
            String head = "POST /api/v1/verify?keep=true HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\n";
            TestServer.awayFromMinuteBoundary(40);
            int kept = 0;
            for (int i = 0; i < 10 * rate; i++) {
                String answer = RawClient.send(loopback(2), srv.server.port(), head, good, 30_000);
                assertThat(status(answer)).isIn(200, 429);
                kept += answer.contains("\"permalink\"") ? 1 : 0;
            }
            assertThat(kept).isEqualTo(rate);
            // 300 requests, 30 at a time (all at once would be over the bound on connections in all).
            List<Integer> atOnce = atOnce(10 * 10 * rate, 30, i -> () -> {
                String answer = RawClient.send(loopback(10 + i % 10), srv.server.port(), head, good, 60_000);
                return answer.contains("\"permalink\"") ? 10 + i % 10 : status(answer);
            });
            for (int a = 10; a < 20; a++) {
                int address = a;
                assertThat(atOnce.stream().filter(s -> s == address).count()).as("kept from 127.0.0.%d", a).isEqualTo(rate);
            }
            assertThat(atOnce.stream().filter(s -> s == 429).count()).isEqualTo(10L * 9 * rate);
            assertThat(srv.count("reports")).isEqualTo(11L * rate);
        }
    }

    @Test
    void verifyAndSearch_answerBadRequest_countsTenTimesTheirBound() throws Exception {
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), 1 << 20, 1000))) {
            Map<String, byte[]> files = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 2000; i++) {
                files.put("f" + i + ".txt", new byte[] {'x'});
            }
            TestServer.assertProblem(srv.postFiles("/api/v1/verify", files, Optional.empty()), 400, "bad-request");
            String token = srv.token("desk");
            TestServer.assertProblem(srv.get("/api/v1/evidence?limit=5000", Optional.of(token)), 400, "bad-request");
            assertThat(srv.get("/api/v1/evidence?limit=500", Optional.of(token)).statusCode()).isEqualTo(200);
        }
    }

    private static int list(TestServer srv, InetAddress from, String token) throws Exception {
        return status(RawClient.exchange(from, srv.server.port(), "GET /api/v1/evidence HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + token + "\r\nConnection: close\r\n\r\n", 30_000));
    }

    /** Runs {@code n} requests, {@code threads} at once (each made by {@code request} from its index), and gives their results. */
    static List<Integer> atOnce(int n, int threads, java.util.function.IntFunction<Callable<Integer>> request) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(pool.submit(request.apply(i)));
            }
            List<Integer> results = new ArrayList<>();
            for (Future<Integer> f : all) {
                results.add(f.get(180, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
