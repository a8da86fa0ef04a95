// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** The timestamp services' HTTP client against a loopback server that misbehaves on purpose. */
class HttpTest {
    private HttpServer server;
    private final Http http = new Http(new Http.Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(1)));

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/ok", ex -> answer(ex, 200, new byte[10]));
        server.createContext("/big", ex -> answer(ex, 200, new byte[100]));
        server.createContext("/fail", ex -> answer(ex, 503, new byte[0]));
        server.createContext("/drip", ex -> {
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = ex.getResponseBody()) {
                // A byte every 300 ms for up to a minute: only the client's deadline ends this early.
                for (int i = 0; i < 200; i++) {
                    out.write(1);
                    out.flush();
                    Thread.sleep(300);
                }
            } catch (InterruptedException | IOException e) {
                // the client gave up
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private static void answer(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
        ex.close();
    }

    private static Failure failure(Runnable r) {
        try {
            r.run();
        } catch (ProofModeException e) {
            return e.failure();
        }
        throw new AssertionError("no failure");
    }

    @Test
    void get_returnsBody_withinBound() {
        Http.Response r = http.get(uri("/ok"), "*/*", 64);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).hasSize(10);
    }

    @Test
    void get_badData_forAnswerPastBound() {
        assertThat(failure(() -> http.get(uri("/big"), "*/*", 64))).isEqualTo(Failure.BAD_DATA);
    }

    @Test
    void post_serviceUnreachable_forServerErrorClosedPortAndSlowBody() throws IOException {
        assertThat(failure(() -> http.post(uri("/fail"), "a/b", "*/*", new byte[1], 64))).isEqualTo(Failure.SERVICE_UNREACHABLE);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThat(failure(() -> http.get(URI.create("http://127.0.0.1:" + closed + "/"), "*/*", 64))).isEqualTo(Failure.SERVICE_UNREACHABLE);
        // Without a deadline on the body this would end after a minute with 200 bytes, well within the bound.
        assertThat(failure(() -> http.get(uri("/drip"), "*/*", 1000))).isEqualTo(Failure.SERVICE_UNREACHABLE);
    }

    @Test
    void get_unsupported_forOtherSchemes() {
        assertThatThrownBy(() -> http.get(URI.create("ftp://127.0.0.1/x"), "*/*", 64)).isInstanceOf(ProofModeException.class)
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.UNSUPPORTED));
    }

    /**
     * An .onion name without a proxy is refused before this machine's resolver is asked: the resolver the
     * client holds counts its calls, and does answer for an ordinary name (localhost), so a count of zero
     * means the refusal came first.
     */
    @Test
    void get_refusedBeforeAnyLookup_onionWithoutProxy() {
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        Http watched = new Http(new Http.Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2)), java.util.Optional.empty(), host -> {
            asked.add(host);
            return java.util.List.of(InetAddress.getAllByName(host));
        });
        for (String onion : new String[] {"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz234.onion", "x.ONION", "x.onion."}) {
            assertThatThrownBy(() -> watched.get(URI.create("http://" + onion + "/api/v1/token"), "*/*", 64))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> {
                        assertThat(e.failure()).isEqualTo(Failure.INCOMPATIBLE_OPTIONS);
                        assertThat(e.getMessage()).contains("--tor").doesNotContain("\n");
                    });
        }
        assertThat(asked).isEmpty();
        Http.Response r = watched.get(URI.create("http://localhost:" + server.getAddress().getPort() + "/ok"), "*/*", 64);
        assertThat(r.status()).isEqualTo(200);
        assertThat(asked).containsExactly("localhost");
    }

    /** A server whose status line carries a terminal escape and a bidi override: the message shows them escaped. */
    @Test
    void get_escapesWhatTheServerSent_malformedStatusLine() throws Exception {
        try (ServerSocket raw = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (java.net.Socket s = raw.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write("HTTP/1.1 2x0 \u001b]0;owned\u0007\u001b[2J\u202e\u200bok\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // the test fails on the client's side
                }
            });
            t.start();
            assertThatThrownBy(() -> http.get(URI.create("http://127.0.0.1:" + raw.getLocalPort() + "/"), "*/*", 64))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> {
                        assertThat(e.failure()).isEqualTo(Failure.SERVICE_UNREACHABLE);
                        assertThat(e.getMessage()).contains("\\u001b", "\\u202e", "\\u200b")
                                .doesNotContain("\u001b", "\u0007", "\u202e", "\u200b");
                    });
            t.join(5000);
        }
    }
}
