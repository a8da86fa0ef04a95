// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.util.Http;

/**
 * A collection from a server that answers HTTP/1.0 and closes each connection after its answer without
 * saying so (Python's {@code http.server}, many small servers): every address is fetched on a connection
 * of its own, never on one the server has already closed.
 */
class CollectorConnectionTest {
    @TempDir
    Path tmp;

    @Test
    void collect_keepsEveryMedium_fromAServerClosingEachConnectionSilently() throws Exception {
        byte[] page = "<html><head><title>t</title></head><body><img src=\"/a.png\"><img src=\"/b.png\"></body></html>"
                .getBytes(StandardCharsets.UTF_8);
        AtomicInteger answered = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread serving = new Thread(() -> serve(server, page, answered));
            serving.setDaemon(true);
            serving.start();
            SigningKey key = TestHomes.keyIn(ProofMode.at(tmp.resolve("home")), KeyType.ED25519);
            Collector collector = new Collector(new Http(new Http.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(10)), Optional.empty()),
                    List.of(), CollectLimits.DEFAULT, Clock.systemUTC());

            Collector.Result r = collector.collect(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/post"), tmp.resolve("c"), key,
                    new Collector.Options(Optional.empty(), Optional.empty()));

            assertThat(r.record().skipped()).isEmpty();
            assertThat(r.record().media()).hasSize(2);
            assertThat(answered.get()).isEqualTo(3);
            assertThat(Files.readAllBytes(tmp.resolve("c").resolve(r.record().media().get(1).file()))).startsWith((byte) 0x89);
        }
    }

    /** Answers each request with HTTP/1.0, no Connection header, then closes; a PNG signature for a .png. */
    private static void serve(ServerSocket server, byte[] page, AtomicInteger answered) {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    int b = in.read();
                    if (b == -1) {
                        break;
                    }
                    head.append((char) b);
                }
                if (head.isEmpty()) {
                    continue;
                }
                boolean png = head.toString().startsWith("GET /a.png") || head.toString().startsWith("GET /b.png");
                byte[] body = png ? new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0} : page;
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.0 200 OK\r\nContent-Type: " + (png ? "image/png" : "text/html") + "\r\nContent-Length: "
                        + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                answered.incrementAndGet();
            } catch (IOException e) {
                return;
            }
        }
    }
}
