// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.RawClient.health;
import static org.proofmode.server.RawClient.loopback;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.server.service.EventLog;

/**
 * The bound on connections per client address, at ten times its value: one after another on new connections,
 * all at once, from one address and from many; and slow bodies spread over many addresses.
 */
class ConnectionBoundsTest {
    private static final int BOUND = 4;

    @TempDir
    Path tmp;

    private TestServer small(EventLog events) {
        return TestServer.start(ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0).withConnectionsPerClient(BOUND),
                events);
    }

    @Test
    void health_answersEveryRequest_thousandSequentialConnectionsFromOneAddress() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            int answered = 0;
            for (int i = 0; i < 1000; i++) {
                if (health(loopback(1), srv.server.port(), 10_000) == 200) {
                    answered++;
                }
            }
            assertThat(answered).isEqualTo(1000);
        }
    }

    @Test
    void health_answersEveryRequest_tenTimesTheBoundSequentiallyFromManyAddresses() throws Exception {
        try (TestServer srv = small(EventLog.OFF)) {
            for (int i = 0; i < 10 * BOUND; i++) {
                for (int a = 2; a < 12; a++) {
                    assertThat(health(loopback(a), srv.server.port(), 10_000)).as("request %d from 127.0.0.%d", i, a).isEqualTo(200);
                }
            }
        }
    }

    @Test
    void connections_holdOnlyTheBoundPerAddress_tenTimesTheBoundOpenAtOnceFromManyAddresses() throws Exception {
        try (TestServer srv = small(EventLog.OFF)) {
            int port = srv.server.port();
            for (int round = 0; round < 2; round++) {
                List<List<Socket>> held = new ArrayList<>();
                try {
                    for (int a = 2; a < 12; a++) {
                        List<Socket> fromOne = new ArrayList<>();
                        held.add(fromOne);
                        for (int i = 0; i < 10 * BOUND; i++) {
                            fromOne.add(RawClient.connect(loopback(a), port, 10_000));
                        }
                    }
                    // Another address is not held up by them.
                    assertThat(health(loopback(1), port, 5_000)).isEqualTo(200);
                    for (List<Socket> fromOne : held) {
                        assertThat(answeredOn(fromOne)).as("connections kept of %d from one address", fromOne.size()).isEqualTo(BOUND);
                    }
                } finally {
                    held.forEach(ConnectionBoundsTest::closeAll);
                }
                // Everything they held is given back: a second round is treated exactly as the first.
                for (int a = 2; a < 12; a++) {
                    assertThat(health(loopback(a), port, 10_000)).isEqualTo(200);
                }
            }
        }
    }

    @Test
    void connections_neverLeakTheCount_tenTimesTheBoundConcurrentlyFromOneAddressAndMany() throws Exception {
        StringWriter lines = new StringWriter();
        EventLog events = new EventLog(new PrintWriter(lines), EventLog.Format.TEXT, Clock.systemUTC(), "i-1");
        try (TestServer srv = small(events)) {
            int port = srv.server.port();
            ExecutorService pool = Executors.newFixedThreadPool(10 * BOUND);
            try {
                List<Future<Integer>> all = new ArrayList<>();
                for (int t = 0; t < 10 * BOUND; t++) {
                    InetAddress from = loopback(t % 2 == 0 ? 2 : 3 + t % 10);
                    all.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < 25; i++) {
                            ok += health(from, port, 10_000) == 200 ? 1 : 0;
                        }
                        return ok;
                    }));
                }
                int ok = 0;
                for (Future<Integer> f : all) {
                    ok += f.get(120, TimeUnit.SECONDS);
                }
                assertThat(ok).isPositive();
            } finally {
                pool.shutdownNow();
            }
            // Whatever was refused while they ran, each address has all of its bound again.
            for (int a = 2; a < 13; a++) {
                List<Socket> again = new ArrayList<>();
                try {
                    for (int i = 0; i < BOUND; i++) {
                        again.add(RawClient.connect(loopback(a), port, 10_000));
                    }
                    assertThat(answeredOn(again)).as("127.0.0.%d", a).isEqualTo(BOUND);
                } finally {
                    closeAll(again);
                }
            }
        }
    }

    @Test
    void connections_logRefusalsRateLimited_tenTimesTheBoundOverTheBound() throws Exception {
        StringWriter lines = new StringWriter();
        EventLog events = new EventLog(new PrintWriter(lines), EventLog.Format.TEXT, Clock.systemUTC(), "i-1");
        try (TestServer srv = small(events)) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 10 * BOUND; i++) {
                    held.add(RawClient.connect(loopback(2), srv.server.port(), 10_000));
                }
                assertThat(answeredOn(held)).isEqualTo(BOUND);
            } finally {
                closeAll(held);
            }
        }
        List<String> refused = lines.toString().lines().filter(l -> l.contains(" warn connection-refused ")).toList();
        // One line for the first refusal; the rest of the burst is counted in the next line, not written one by one.
        assertThat(refused).hasSize(1);
        assertThat(refused.get(0)).contains("remote=127.0.0.2", "bound=address", "limit=" + BOUND, "refused=1");
    }

    /**
     * Slow bodies over many addresses, none over its own bound: 30 addresses with 10 connections each, each
     * connection a request announcing a large body and then sending one byte of it every 3 seconds. Another
     * client is answered within 5 seconds the whole time, and the bodies are cut off as too slow.
     */
    @Test
    void health_answersOthersWithinSeconds_slowBodyFloodFromThirtyAddresses() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty());
             SlowBodyFlood flood = new SlowBodyFlood(srv.server.port(), 30, 10, false)) {
            probeDuring(srv, flood, Duration.ofSeconds(15));
            assertThat(flood.cut()).as("slow bodies cut off").isEqualTo(300);
        }
    }

    /**
     * Slow bodies at ten times the bound on connections in all, each address within its own bound (63
     * addresses with 32 connections each, opened again as soon as they are cut): the server never holds more
     * than its bound, and another client is answered within 5 seconds the whole time.
     */
    @Test
    void health_answersOthersWithinSeconds_slowBodiesAtTenTimesTheTotalBoundFromManyAddresses() throws Exception {
        int addresses = (10 * ProofServer.MAX_CONNECTIONS + ServerConfig.DEFAULT_CONNECTIONS_PER_CLIENT - 1)
                / ServerConfig.DEFAULT_CONNECTIONS_PER_CLIENT;
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty());
             SlowBodyFlood flood = new SlowBodyFlood(srv.server.port(), addresses, ServerConfig.DEFAULT_CONNECTIONS_PER_CLIENT, true)) {
            assertThat(addresses * ServerConfig.DEFAULT_CONNECTIONS_PER_CLIENT).isGreaterThanOrEqualTo(10 * ProofServer.MAX_CONNECTIONS);
            probeDuring(srv, flood, Duration.ofSeconds(15));
            assertThat(flood.cut()).isPositive();
        }
    }

    /**
     * Every 3 seconds a byte of each slow body (on a thread of its own); every second a health check from another
     * address, answered within 5 s.
     */
    private static void probeDuring(TestServer srv, SlowBodyFlood flood, Duration length) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        ExecutorService ticks = Executors.newSingleThreadExecutor();
        Future<?> ticking = ticks.submit(() -> {
            while (!stop.get()) {
                long t0 = System.nanoTime();
                flood.tick();
                Thread.sleep(Math.max(0, 3_000 - Duration.ofNanos(System.nanoTime() - t0).toMillis()));
            }
            return null;
        });
        try {
            long end = System.nanoTime() + length.toNanos();
            int probes = 0;
            while (System.nanoTime() < end) {
                assertThat(srv.server.connections().openInAll()).isLessThanOrEqualTo(ProofServer.MAX_CONNECTIONS);
                long t0 = System.nanoTime();
                int status = health(loopback(1 + probes % 2 * 200), srv.server.port(), 5_000);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                assertThat(status).as("probe %d during the flood", probes).isIn(200, 503);
                assertThat(took).as("probe %d during the flood", probes).isLessThan(Duration.ofSeconds(5));
                probes++;
                Thread.sleep(Math.max(0, 1_000 - took.toMillis()));
            }
            assertThat(probes).isGreaterThanOrEqualTo(10);
        } finally {
            stop.set(true);
            ticks.shutdown();
        }
        ticking.get(60, TimeUnit.SECONDS);
    }

    /** Sends a health check on each connection and counts those answered {@code 200}. */
    private static int answeredOn(List<Socket> connections) {
        byte[] request = "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        int answered = 0;
        for (Socket s : connections) {
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                answered += RawClient.status(answer) == 200 ? 1 : 0;
            } catch (IOException closedByServer) {
                // refused as it opened
            }
        }
        return answered;
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a test's own socket
            }
        }
    }
}
