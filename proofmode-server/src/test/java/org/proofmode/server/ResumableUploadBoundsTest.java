// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.server.service.UploadBounds;

/**
 * The bounds on resumable uploads in progress ({@link UploadBounds}), each tried at ten times its value,
 * sequentially and concurrently, from one client address and from many (127.0.0.x): exactly the bound is
 * created, every other request gets its problem with a {@code Retry-After}, and finishing or expiring the
 * uploads frees their share, round after round.
 */
class ResumableUploadBoundsTest {
    private static final int ROUNDS = 10;

    @TempDir
    Path tmp;

    private ExecutorService pool;
    private byte[] bundle;

    @BeforeEach
    void setUp() throws Exception {
        pool = Executors.newFixedThreadPool(16);
        bundle = Files.readAllBytes(TestBundles.good(tmp.resolve("bundle")));
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    /** One way of sending a round: in sequence or at once, from 127.0.0.1 or from a different address each. */
    private enum Mode {
        SEQUENTIAL_ONE, CONCURRENT_ONE, SEQUENTIAL_MANY, CONCURRENT_MANY;

        boolean concurrent() {
            return this == CONCURRENT_ONE || this == CONCURRENT_MANY;
        }

        InetAddress from(int i) {
            return this == SEQUENTIAL_ONE || this == CONCURRENT_ONE ? RawClient.loopback(1) : RawClient.loopback(2 + i % 200);
        }
    }

    private TestServer start(UploadBounds bounds) {
        return TestServer.start(TestServer.small(tmp.resolve("server"), 1 << 20, 1_000_000).withUploads(bounds));
    }

    @Test
    void create_refusesPastTheTokensBound_withTooManyRequests_andFinishingFreesItsShare() throws Exception {
        int bound = 3;
        try (TestServer srv = start(new UploadBounds(bound, 10_000, Long.MAX_VALUE, Duration.ofDays(1)))) {
            String token = srv.token("field");
            String other = srv.token("desk");
            for (int round = 0; round < ROUNDS; round++) {
                Round r = tenTimes(srv, round, bound, i -> token);
                for (String a : r.answers()) {
                    if (RawClient.status(a) != 201) {
                        assertRefused(a, 429, "rate-limited", "uploads in progress");
                    }
                }
                // Another token's share is its own.
                String theirs = location(create(srv, RawClient.loopback(1), other, bundle.length));
                for (String at : r.made()) {
                    assertThat(RawClient.status(finish(srv, r.mode().from(0), token, at))).isIn(200, 201);
                }
                assertThat(RawClient.status(finish(srv, r.mode().from(0), other, theirs))).isIn(200, 201);
            }
        }
    }

    @Test
    void create_refusesPastTheServersBound_withInsufficientStorage_fromManyTokens() throws Exception {
        int bound = 4;
        try (TestServer srv = start(new UploadBounds(2, bound, Long.MAX_VALUE, Duration.ofDays(1)))) {
            List<String> tokens = new ArrayList<>();
            for (int t = 0; t < 10; t++) {
                tokens.add(srv.token("field-" + t));
            }
            for (int round = 0; round < ROUNDS; round++) {
                Round r = tenTimes(srv, round, bound, i -> tokens.get(i % tokens.size()));
                int full = 0;
                for (String a : r.answers()) {
                    if (RawClient.status(a) == 507) {
                        assertRefused(a, 507, "insufficient-storage", "uploads in progress");
                        full++;
                    } else if (RawClient.status(a) != 201) {
                        // at once, one token may take two places before the server is full
                        assertThat(r.mode().concurrent()).as(a).isTrue();
                        assertRefused(a, 429, "rate-limited", "uploads in progress");
                    }
                }
                assertThat(full).isGreaterThanOrEqualTo(r.mode().concurrent() ? 1 : 10 * bound - bound);
                for (String a : r.answers()) {
                    if (RawClient.status(a) == 201) {
                        String owner = tokens.get(r.answers().indexOf(a) % tokens.size());
                        assertThat(RawClient.status(finish(srv, r.mode().from(1), owner, location(a)))).isIn(200, 201);
                    }
                }
            }
        }
    }

    @Test
    void create_refusesPastTheReservedBytes_withInsufficientStorage() throws Exception {
        int bound = 3;
        try (TestServer srv = start(new UploadBounds(10_000, 10_000, (long) bound * bundle.length, Duration.ofDays(1)))) {
            String token = srv.token("field");
            for (int round = 0; round < ROUNDS; round++) {
                Round r = tenTimes(srv, round, bound, i -> token);
                r.answers().stream().filter(a -> RawClient.status(a) != 201)
                        .forEach(a -> assertRefused(a, 507, "insufficient-storage", "bytes this server gives them"));
                // One byte more than is left is refused even though few uploads are in progress.
                finishAll(srv, r.mode(), token, r.made().subList(0, 1));
                assertRefused(create(srv, RawClient.loopback(1), token, bundle.length + 1L), 507, "insufficient-storage", "no room for");
                finishAll(srv, r.mode(), token, r.made().subList(1, r.made().size()));
            }
        }
    }

    @Test
    void create_takesTheFullBoundAgain_afterUploadsExpire() throws Exception {
        int bound = 2;
        try (TestServer srv = start(new UploadBounds(bound, 4, Long.MAX_VALUE, Duration.ofMillis(1_000)))) {
            String token = srv.token("field");
            for (int round = 0; round < ROUNDS; round++) {
                Round r = tenTimes(srv, round, bound, i -> token);
                r.answers().stream().filter(a -> RawClient.status(a) != 201).forEach(a -> {
                    assertRefused(a, 429, "rate-limited", "uploads in progress");
                    assertThat(header(a, "Retry-After")).hasValue("1");
                });
                Thread.sleep(1_300); // nothing arrives: they expire
            }
            String last = location(create(srv, RawClient.loopback(1), token, bundle.length));
            assertThat(RawClient.status(RawClient.send(RawClient.loopback(1), srv.server.port(), "HEAD " + last + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n", new byte[0], 10_000))).isEqualTo(200);
        }
    }

    /** A round's mode, its answers in order, and the locations of the uploads it created. */
    private record Round(Mode mode, List<String> answers, List<String> made) {
    }

    /** Ten times the bound of creations, in the round's mode; exactly the bound is created. */
    private Round tenTimes(TestServer srv, int round, int bound, IntFunction<String> token) throws Exception {
        Mode mode = Mode.values()[round % Mode.values().length];
        List<String> answers = round(srv, mode, 10 * bound, token, bundle.length);
        List<String> made = created(answers);
        assertThat(made).as("round %d, %s", round, mode).hasSize(bound);
        return new Round(mode, answers, made);
    }

    private List<String> round(TestServer srv, Mode mode, int n, IntFunction<String> token, long length) throws Exception {
        List<Callable<String>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            calls.add(() -> create(srv, mode.from(k), token.apply(k), length));
        }
        List<String> answers = new ArrayList<>();
        if (mode.concurrent()) {
            for (Future<String> f : pool.invokeAll(calls)) {
                answers.add(f.get());
            }
        } else {
            for (Callable<String> c : calls) {
                answers.add(c.call());
            }
        }
        return answers;
    }

    private void finishAll(TestServer srv, Mode mode, String token, List<String> locations) throws Exception {
        for (String at : locations) {
            assertThat(RawClient.status(finish(srv, mode.from(0), token, at))).isIn(200, 201);
        }
    }

    private static String create(TestServer srv, InetAddress from, String token, long length) throws Exception {
        return RawClient.send(from, srv.server.port(), "POST /api/v1/uploads?name=b.zip HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer " + token + "\r\nTus-Resumable: 1.0.0\r\nUpload-Length: " + length + "\r\n", new byte[0], 30_000);
    }

    private String finish(TestServer srv, InetAddress from, String token, String location) throws Exception {
        return RawClient.send(from, srv.server.port(), "PATCH " + location + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + token + "\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n", bundle, 60_000);
    }

    private static List<String> created(List<String> answers) {
        return answers.stream().filter(a -> RawClient.status(a) == 201).map(ResumableUploadBoundsTest::location).toList();
    }

    private static String location(String answer) {
        assertThat(RawClient.status(answer)).as(answer).isEqualTo(201);
        return header(answer, "Location").orElseThrow();
    }

    private static void assertRefused(String answer, int status, String slug, String detail) {
        assertThat(RawClient.status(answer)).as(answer).isEqualTo(status);
        assertThat(header(answer, "Content-Type")).as(answer).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(answer).contains("urn:proofmode:problem:" + slug + "\"").contains(detail);
        assertThat(header(answer, "Retry-After")).as(answer).hasValueSatisfying(s -> assertThat(Long.parseLong(s)).isPositive());
    }

    private static Optional<String> header(String answer, String name) {
        String head = answer.contains("\r\n\r\n") ? answer.substring(0, answer.indexOf("\r\n\r\n")) : answer;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return Optional.of(line.substring(colon + 1).strip());
            }
        }
        return Optional.empty();
    }
}
