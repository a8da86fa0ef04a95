// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.publish.PublishQueue;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.SocksRecorder;

class PublishCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private ProofServer server;
    private String token;
    private Cli cli;
    private Path home;
    private Path photo;
    private String sha;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void setUp() throws Exception {
        server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0));
        token = new TokenStore(server.database()).create("desk").secret();
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "field passphrase");
        photo = Files.copy(Path.of("..", "examples", "photo.jpg"), tmp.resolve("photo.jpg"));
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        sha = Digests.sha256(photo);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url() {
        return "http://127.0.0.1:" + server.port();
    }

    private Cli.Result login(String serverUrl, String... more) throws IOException {
        Path t = Files.writeString(tmp.resolve("token"), token + "\n");
        String[] args = Stream.concat(Stream.of("publish", "login", "--token-file", t.toString()), Stream.of(more)).toArray(String[]::new);
        String[] all = Stream.concat(Stream.of(args), Stream.of(serverUrl)).toArray(String[]::new);
        return cli.run(all);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url() + path)).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static String bundleOf(String line) {
        return line.substring(line.lastIndexOf('/') + 1).strip();
    }

    private List<Path> queued() throws IOException {
        Path q = home.resolve(PublishQueue.FOLDER);
        if (!Files.isDirectory(q)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(q)) {
            return s.filter(p -> p.toString().endsWith(".json")).toList();
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void publish_sendsBundleOnce_andNamesItsPermalink() throws Exception {
        assertThat(login(url()).exit()).isZero();
        assertThat(Files.getPosixFilePermissions(home.resolve("publish/token"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        Cli.Result first = cli.run("publish", photo.toString());
        Cli.Result again = cli.run("publish", sha);

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).startsWith(sha + "  published  " + url() + "/#/evidence/");
        assertThat(again.out()).as("the same bytes, the same item").isEqualTo(first.out());
        JsonNode item = get("/api/v1/evidence/" + bundleOf(first.out()));
        assertThat(item.path("verdict").asText()).isIn("VALID", "TRUSTED");
        assertThat(item.path("custody").size()).as("intake, then a re-submission").isEqualTo(2);
        assertThat(queued()).isEmpty();
    }

    @Test
    void publish_proofOnlyAndNotarizeOnly_reachTheServerLinked() throws Exception {
        assertThat(login(url()).exit()).isZero();

        Cli.Result notarized = cli.run("publish", "--notarize-only", photo.toString());
        Cli.Result proof = cli.run("publish", "--proof-only", photo.toString());

        assertThat(notarized.out()).startsWith(sha + "  notarized  " + url() + "/api/v1/notarizations?q=" + sha);
        JsonNode item = get("/api/v1/evidence/" + bundleOf(proof.out()));
        assertThat(item.path("notarizations").size()).as("the text sent first is linked to the bundle sent later").isEqualTo(1);
        assertThat(item.path("size").asLong()).as("no media in it").isLessThan(Files.size(photo));
    }

    @Test
    void publish_printsJsonLines_withDocumentedFields() throws Exception {
        assertThat(login(url()).exit()).isZero();

        Cli.Result r = cli.run("publish", "--json", photo.toString(), "ab".repeat(32));

        assertThat(r.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        JsonNode sent = JSON.readTree(lines.get(0));
        assertThat(sent.get("sha256").asText()).isEqualTo(sha);
        assertThat(sent.get("what").asText()).isEqualTo("with-media");
        assertThat(sent.get("outcome").asText()).isEqualTo("published");
        assertThat(sent.get("link").asText()).startsWith(url() + "/#/evidence/");
        JsonNode missing = JSON.readTree(lines.get(1));
        assertThat(missing.get("sha256").asText()).isEqualTo("ab".repeat(32));
        assertThat(missing.get("error").get("exitCode").asInt()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(missing.get("error").get("message").asText()).isNotBlank();
    }

    @Test
    void publish_queuesWhenUnreachable_thenSyncDelivers() throws Exception {
        int closed = closedPort();
        cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + closed);
        Files.createDirectories(home.resolve("publish"));
        Files.writeString(home.resolve("publish/token"), token);

        Cli.Result r = cli.run("publish", photo.toString());
        Cli.Result required = cli.run("publish", "--require-published", photo.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith(sha + "  queued  ").contains("cannot be reached");
        assertThat(r.err()).contains("publish sync");
        assertThat(required.exit()).isEqualTo(ExitCodes.TIMESTAMP_UNREACHABLE);
        assertThat(queued()).hasSize(1);
        assertThat(cli.run("publish", "sync").out()).as("not due yet (backoff)").isEmpty();
        assertThat(cli.run("status").out()).contains("publish:     1 item(s) queued, next try after ");
        assertThat(cli.run("status", "--json").out()).contains("\"pendingPublishes\" : 1");

        cli.run("settings", "set", "publish.server", url());
        Cli.Result sync = cli.run("publish", "sync", "--now");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out()).startsWith(sha + "  published  ");
        assertThat(sync.err()).contains("the publish queue is empty");
        assertThat(queued()).isEmpty();
    }

    @Test
    void publish_refusesBadTokenWithoutQueueing_andSaysHowToSetAServer() throws Exception {
        Cli.Result none = cli.run("publish", photo.toString());
        assertThat(none.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(none.err()).contains("publish login URL");

        assertThat(login(url()).exit()).isZero();
        Files.writeString(home.resolve("publish/token"), "pm_not-a-token-this-server-made");
        Cli.Result bad = cli.run("publish", photo.toString());
        assertThat(bad.exit()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(bad.err()).contains("refused the upload token").doesNotContain("\n\n");
        assertThat(queued()).isEmpty();

        Cli.Result unknown = cli.run("publish", "0".repeat(64));
        assertThat(unknown.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
    }

    @Test
    void login_checksUrlTokenAndServer() throws Exception {
        assertThat(login("http://desk.example.org").exit()).as("plain http to another host").isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(login("ftp://desk.example.org").exit()).isEqualTo(ExitCodes.BAD_OPTION);
        Files.writeString(tmp.resolve("spaces"), "not a token\n");
        assertThat(cli.run("publish", "login", "--token-file", tmp.resolve("spaces").toString(), url()).exit()).isEqualTo(ExitCodes.BAD_OPTION);
        Files.writeString(tmp.resolve("wrong"), "pm_wrongwrongwrong\n");
        Cli.Result refused = cli.run("publish", "login", "--token-file", tmp.resolve("wrong").toString(), url());
        assertThat(refused.exit()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(home.resolve("publish/token")).doesNotExist();

        Cli.Result offline = login("http://127.0.0.1:" + closedPort());
        assertThat(offline.exit()).isZero();
        assertThat(offline.out()).contains("not checked");
        assertThat(cli.run("publish", "--tor", "--proxy", "socks5h://127.0.0.1:1", sha).exit()).isEqualTo(ExitCodes.INCOMPATIBLE_OPTIONS);
        assertThat(cli.run("publish", "--proxy", "socks5://127.0.0.1:1080", sha).err()).contains("socks5h://");
    }

    @Test
    void publish_overSocks_sendsHostNamesToTheProxy_andNeverGoesDirect() throws Exception {
        // A name no resolver knows: only the proxy can turn it into the server's address.
        try (SocksRecorder proxy = new SocksRecorder(Map.of("evidence.invalid", new InetSocketAddress("127.0.0.1", server.port())))) {
            String remote = "http://evidence.invalid:" + server.port();
            cli.run("settings", "set", "publish.proxy", proxy.url());
            Files.createDirectories(home.resolve("publish"));
            Files.writeString(home.resolve("publish/token"), token);
            cli.run("settings", "set", "publish.server", remote);

            Cli.Result r = cli.run("publish", photo.toString());

            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).startsWith(sha + "  published  " + remote + "/#/evidence/");
            assertThat(proxy.requests()).isNotEmpty()
                    .allSatisfy(q -> assertThat(q).isEqualTo(new SocksRecorder.Request(SocksRecorder.DOMAIN, "evidence.invalid", server.port())));
        }
        // The proxy is gone: the item waits; nothing was sent around it.
        long before = get("/api/v1/evidence?limit=500").path("results").size();
        Cli.Result down = cli.run("publish", "--proof-only", photo.toString());
        assertThat(down.out()).startsWith(sha + "  queued  ").contains("through the proxy");
        assertThat(get("/api/v1/evidence?limit=500").path("results").size()).isEqualTo(before);

        // Queued with a proxy given for that command only: a later sync keeps that route, never direct.
        cli.run("settings", "set", "publish.proxy", "");
        cli.run("settings", "set", "publish.server", url());
        Cli.Result viaTor = cli.run("publish", "--tor", "--notarize-only", photo.toString());
        assertThat(viaTor.out()).startsWith(sha + "  queued  ");
        Cli.Result sync = cli.run("publish", "sync", "--now");
        assertThat(sync.out()).contains(sha + "  queued  ").contains("socks5h://127.0.0.1:9050");
        assertThat(get("/api/v1/notarizations?q=" + sha).path("notarizations").size()).isZero();
    }

    @Test
    void wipe_removesTokenWithKeys_andQueueWithProofs() throws Exception {
        cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + closedPort());
        Files.createDirectories(home.resolve("publish"));
        Files.writeString(home.resolve("publish/token"), token);
        assertThat(cli.run("publish", photo.toString()).out()).contains("queued");
        assertThat(queued()).hasSize(1);

        Cli.Result keys = cli.run("wipe", "--keys", "--yes");
        assertThat(keys.err()).contains("upload token overwritten and removed");
        assertThat(home.resolve("publish/token")).doesNotExist();
        assertThat(queued()).as("--keys keeps proofs and what waits to be published").hasSize(1);

        cli.run("wipe", "--proofs", "--yes");
        assertThat(queued()).isEmpty();
        assertThat(home.resolve(PublishQueue.FOLDER)).doesNotExist();
    }

    /** A server that answers every request with this status and body, or never if {@code status} is 0. */
    private static com.sun.net.httpserver.HttpServer fake(int status, String body) throws IOException {
        com.sun.net.httpserver.HttpServer f = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        f.createContext("/", ex -> {
            ex.getRequestBody().transferTo(java.io.OutputStream.nullOutputStream());
            if (status == 0) {
                try {
                    Thread.sleep(20_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        f.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        f.start();
        return f;
    }

    @Test
    void publish_saysWhatIsWrong_garbageSlowOrTooLarge() throws Exception {
        Files.createDirectories(home.resolve("publish"));
        Files.writeString(home.resolve("publish/token"), token);
        Files.writeString(home.resolve("timestamp.conf"), "http.connect-timeout = 2\nhttp.timeout = 1\n");
        com.sun.net.httpserver.HttpServer garbage = fake(200, "<html>a captive portal</html>");
        com.sun.net.httpserver.HttpServer slow = fake(0, "");
        com.sun.net.httpserver.HttpServer hostile = fake(201, "{\"sha256\":\"" + "a".repeat(64) + "\",\"permalink\":\"/#/x\\u001b[2J\"}");
        try {
            cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + hostile.getAddress().getPort());
            Cli.Result h = cli.run("publish", photo.toString());
            assertThat(h.exit()).as("a permalink with a terminal escape").isEqualTo(ExitCodes.BAD_DATA);
            assertThat(h.out() + h.err()).doesNotContain("\u001b");

            cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + garbage.getAddress().getPort());
            Cli.Result g = cli.run("publish", photo.toString());
            assertThat(g.exit()).isEqualTo(ExitCodes.BAD_DATA);
            assertThat(g.err()).contains("not the evidence API's JSON");
            assertThat(queued()).isEmpty();

            cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + slow.getAddress().getPort());
            long t0 = System.nanoTime();
            Cli.Result s = cli.run("publish", photo.toString());
            assertThat(s.out()).startsWith(sha + "  queued  ").contains("no answer in time");
            assertThat((System.nanoTime() - t0) / 1e9).as("bounded by http.timeout").isLessThan(10);
        } finally {
            garbage.stop(0);
            slow.stop(0);
            hostile.stop(0);
        }

        try (ProofServer small = ProofServer.start(ServerConfig.defaults(tmp.resolve("small")).withListen("127.0.0.1", 0)
                .withBounds(1024, org.proofmode.bundle.BundleLimits.DEFAULT, java.time.Duration.ofSeconds(30), 600))) {
            Files.writeString(home.resolve("publish/token"), new TokenStore(small.database()).create("desk").secret());
            cli.run("settings", "set", "publish.server", "http://127.0.0.1:" + small.port());
            Cli.Result big = cli.run("publish", "sync", "--now");
            assertThat(big.exit()).isEqualTo(ExitCodes.BAD_DATA);
            assertThat(big.err()).contains("larger than this server takes");
            assertThat(queued()).as("not retried forever").isEmpty();
        }
    }

    @Test
    void publish_largeBundle_resumesAfterADroppedConnection_storedOnce() throws Exception {
        Path video = ProveCommandTest.jpeg(tmp, "long.jpg", 12 << 20, 77);
        assertThat(cli.run("prove", video.toString()).exit()).isZero();
        String h = Digests.sha256(video);
        try (SocksRecorder proxy = new SocksRecorder(Map.of("evidence.invalid", new InetSocketAddress("127.0.0.1", server.port())))) {
            cli.run("settings", "set", "publish.proxy", proxy.url());
            cli.run("settings", "set", "publish.server", "http://evidence.invalid:" + server.port());
            Files.createDirectories(home.resolve("publish"));
            Files.writeString(home.resolve("publish/token"), token);

            proxy.cutAfter(5 << 20);
            Cli.Result cut = cli.run("publish", video.toString());
            assertThat(cut.exit()).as(cut.err()).isZero();
            assertThat(cut.out()).startsWith(h + "  queued  ");
            try (Stream<Path> s = Files.list(home.resolve("publish/uploads"))) {
                assertThat(s.toList()).as("the upload's address, kept for the next attempt").hasSize(1);
            }
            long firstTry = proxy.bytesUp();

            proxy.cutAfter(-1);
            Cli.Result resumed = cli.run("publish", "sync", "--now");

            assertThat(resumed.exit()).as(resumed.err()).isZero();
            assertThat(resumed.out()).startsWith(h + "  published  ");
            long bundleSize = get("/api/v1/evidence/" + bundleOf(resumed.out())).path("size").asLong();
            assertThat(bundleSize).isGreaterThan(12L << 20);
            assertThat(firstTry).isGreaterThanOrEqualTo(5L << 20);
            assertThat(proxy.bytesUp() - firstTry).as("the rest only, not the whole bundle again")
                    .isLessThan(bundleSize - (4L << 20));
            assertThat(get("/api/v1/evidence?media=" + h).path("results").size()).as("one stored copy").isEqualTo(1);
            try (Stream<Path> s = Files.list(home.resolve("publish/uploads"))) {
                assertThat(s.toList()).isEmpty();
            }
        }
    }

    /**
     * A hostile server's answer to the token check (its name for the token and the scope) with a terminal
     * title escape, a screen clear, a bidi override and zero-width characters: printed escaped.
     */
    @Test
    void login_escapesTheServersWords_hostileAnswer() throws Exception {
        com.sun.net.httpserver.HttpServer hostile = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        hostile.createContext("/api/v1/token", ex -> {
            byte[] body = ("{\"name\":\"\\u001b]0;owned\\u0007\\u001b[2Jdesk\\u202egnp.exe\\u200b\\u2060\\ufeff\","
                    + "\"scope\":\"upload\\u001b[31m\\u200d\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        hostile.start();
        try {
            Cli.Result r = login("http://127.0.0.1:" + hostile.getAddress().getPort());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("\\u001b]0;owned\\u0007\\u001b[2Jdesk\\u202egnp.exe\\u200b\\u2060\\ufeff", "upload\\u001b[31m\\u200d");
            for (char c : new char[] {0x1b, 0x07, 0x202e, 0x200b, 0x200d, 0x2060, 0xfeff}) {
                assertThat(r.out() + r.err()).as("U+%04X", (int) c).doesNotContain(String.valueOf(c));
            }
        } finally {
            hostile.stop(0);
        }
    }
}
