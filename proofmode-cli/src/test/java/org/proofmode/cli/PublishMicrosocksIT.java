// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.ExternalTool;

/**
 * {@code publish} through a real SOCKS5 proxy, Debian's {@code microsocks}, to a real evidence server:
 * the bundle arrives and verifies, the proxy's log shows the connection by host name (the proxy resolved
 * it), with the proxy stopped the item is queued, and once it is back {@code publish sync} delivers it.
 */
class PublishMicrosocksIT {
    @TempDir
    Path tmp;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Process microsocks(int port, Path log) throws Exception {
        Path bin = ExternalTool.require("microsocks");
        Process p = new ProcessBuilder(bin.toString(), "-i", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                return p;
            } catch (java.io.IOException e) {
                Thread.sleep(50);
            }
        }
        p.destroyForcibly();
        throw new AssertionError("microsocks did not listen on " + port);
    }

    @Test
    void publish_throughMicrosocks_arrivesQueuesWhileItIsDownAndSyncs() throws Exception {
        try (ProofServer server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0))) {
            String token = new TokenStore(server.database()).create("field").secret();
            Path home = tmp.resolve("home");
            Cli cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "field passphrase");
            Path photo = Files.copy(Path.of("..", "examples", "photo.jpg"), tmp.resolve("photo.jpg"));
            String sha = Digests.sha256(photo);
            assertThat(cli.run("prove", photo.toString()).exit()).isZero();
            int port = freePort();
            Path log = tmp.resolve("microsocks.log");
            String serverUrl = "http://localhost:" + server.port();
            Files.writeString(tmp.resolve("token"), token);

            Process proxy = microsocks(port, log);
            try {
                assertThat(cli.run("settings", "set", "publish.proxy", "socks5h://127.0.0.1:" + port).exit()).isZero();
                Cli.Result login = cli.run("publish", "login", "--token-file", tmp.resolve("token").toString(), serverUrl);
                assertThat(login.out()).as(login.err()).contains("the server takes the token");
                Cli.Result r = cli.run("publish", photo.toString());
                assertThat(r.exit()).as(r.err()).isZero();
                assertThat(r.out()).startsWith(sha + "  published  " + serverUrl + "/#/evidence/");
                String bundle = r.out().substring(r.out().lastIndexOf('/') + 1).strip();
                HttpResponse<byte[]> item = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/api/v1/evidence/" + bundle)).header("Authorization", "Bearer " + token).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                JsonNode n = new ObjectMapper().readTree(item.body());
                assertThat(n.path("verdict").asText()).isIn("VALID", "TRUSTED");
            } finally {
                proxy.destroy();
                proxy.waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(Files.readString(log)).as("the proxy connected by the name it was given").contains("connected to localhost:" + server.port());

            Cli.Result queued = cli.run("publish", "--proof-only", photo.toString());
            assertThat(queued.exit()).isZero();
            assertThat(queued.out()).startsWith(sha + "  queued  ").contains("through the proxy");

            proxy = microsocks(port, log);
            try {
                Cli.Result sync = cli.run("publish", "sync", "--now");
                assertThat(sync.exit()).as(sync.err()).isZero();
                assertThat(sync.out()).startsWith(sha + "  published  ");
                assertThat(sync.err()).contains("the publish queue is empty");
            } finally {
                proxy.destroy();
                proxy.waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(Files.readAllLines(log).stream().filter(l -> l.contains("connected to localhost:" + server.port())).count())
                    .isGreaterThanOrEqualTo(3);
        }
    }

    /**
     * {@code log monitor} goes through the home's proxy setting and through {@code --proxy}: the proxy's log
     * shows the log's host by name; with no proxy an {@code .onion} log is refused before any look-up.
     */
    @Test
    void logMonitor_throughMicrosocks_homeSettingAndOption() throws Exception {
        try (ProofServer server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0))) {
            Cli cli = new Cli(tmp.resolve("home"));
            int port = freePort();
            Path log = tmp.resolve("microsocks.log");
            String url = "http://localhost:" + server.port();
            Process proxy = microsocks(port, log);
            try {
                Cli.Result byOption = cli.run("log", "monitor", "--proxy", "socks5h://127.0.0.1:" + port, "--log-key", server.logKey(), url);
                assertThat(byOption.exit()).as(byOption.err()).isZero();
                assertThat(Files.readString(log)).contains("connected to localhost:" + server.port());
                long before = Files.readAllLines(log).size();
                assertThat(cli.run("settings", "set", "publish.proxy", "socks5h://127.0.0.1:" + port).exit()).isZero();
                Cli.Result bySetting = cli.run("log", "monitor", "--log-key", server.logKey(), url);
                assertThat(bySetting.exit()).as(bySetting.err()).isZero();
                assertThat(Files.readAllLines(log).stream().skip(before).filter(l -> l.contains("connected to localhost:" + server.port())))
                        .isNotEmpty();
            } finally {
                proxy.destroy();
                proxy.waitFor(10, TimeUnit.SECONDS);
            }
            Cli.Result down = cli.run("log", "monitor", "--log-key", server.logKey(), url);
            assertThat(down.exit()).as("the proxy is down: nothing goes direct").isNotZero();
            assertThat(down.err()).contains("through the proxy");

            Cli direct = new Cli(tmp.resolve("direct-home"));
            Cli.Result onion = direct.run("log", "monitor", "--log-key", server.logKey(), "http://exampleonionaddressxyz.onion");
            assertThat(onion.exit()).isEqualTo(ExitCodes.INCOMPATIBLE_OPTIONS);
            assertThat(onion.err().strip()).contains(".onion", "--tor").doesNotContain("\n");
        }
    }
}
