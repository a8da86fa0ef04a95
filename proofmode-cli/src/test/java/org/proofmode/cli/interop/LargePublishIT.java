// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SocksRecorder;

/**
 * A large video published over a link that drops mid-upload (issue #18): the next attempt goes on from the
 * bytes the server holds, nothing partial is stored under an evidence id meanwhile, the stored bundle is
 * the one {@code export} makes, and memory stays flat on both sides: {@code serve} and every client run are
 * JVMs of the shaded jar limited to a 64 MiB heap (and made to exit on an {@link OutOfMemoryError}); the
 * bundle is five times that, the first attempt carries twice that, the second three times.
 */
class LargePublishIT {
    private static final long SIZE = 320L << 20;
    private static final long CUT = 128L << 20;
    private static final List<String> SMALL_HEAP = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError");
    private static final Duration LONG = Duration.ofMinutes(5);
    /** A name no resolver knows: only the proxy turns it into the server's address. */
    private static final String REMOTE = "evidence.invalid";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void publish_resumesAfterTheCut_storedOnceAndWhole_serverAndClientIn64MiBHeaps() throws Exception {
        Path serverHome = dir.resolve("server");
        ProcessResult made = ProofModeJar.withoutPassphrase(serverHome).run("server", "token", "create", "desk", "--scope", "admin");
        assertThat(made.exitCode()).as(made.describe()).isZero();
        String token = made.stdout().strip();
        Path serverLog = dir.resolve("serve.log");
        // The server starts while the sender makes its video and proves it.
        Process server = Daemon.startJvm(serverHome, serverLog, List.of(), SMALL_HEAP, Map.of(), "serve", "--port", "0");
        try {
            Path media = TestMedia.jpeg(dir.resolve("camera"), "long-video.jpg", SIZE, 18);
            String mediaSha = TestMedia.sha256(media);
            ProofModeJar client = ProofModeJar.at(dir.resolve("client"));
            ProcessResult proved = client.runJvm(SMALL_HEAP, LONG, "prove", media.toString());
            assertThat(proved.exitCode()).as(proved.describe()).isZero();
            // What the server must end up with: the share bundles of one proof set are byte-identical.
            Path reference = dir.resolve("reference.zip");
            ProcessResult exported = client.runJvm(SMALL_HEAP, LONG, "export", "--with-media", "-o", reference.toString(), media.toString());
            assertThat(exported.exitCode()).as(exported.describe()).isZero();
            long bundleSize = Files.size(reference);
            String bundleSha = TestMedia.sha256(reference);
            Files.delete(reference);
            assertThat(bundleSize).isGreaterThan(SIZE);

            Daemon.await(server, serverLog, "serving http://127.0.0.1:");
            Matcher m = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/").matcher(Files.readString(serverLog));
            assertThat(m.find()).isTrue();
            int port = Integer.parseInt(m.group(1));
            String base = "http://127.0.0.1:" + port;
            Path tokenFile = Files.writeString(dir.resolve("token"), token + "\n");
            ProcessResult login = client.run("publish", "login", "--token-file", tokenFile.toString(), base);
            assertThat(login.exitCode()).as(login.describe()).isZero();
            assertThat(login.stdout()).contains("the server takes the token");

            try (SocksRecorder proxy = new SocksRecorder(Map.of(REMOTE, new InetSocketAddress("127.0.0.1", port)))) {
                String remote = "http://" + REMOTE + ":" + port;
                assertThat(client.run("settings", "set", "publish.server", remote).exitCode()).isZero();
                assertThat(client.run("settings", "set", "publish.proxy", proxy.url()).exitCode()).isZero();
                int before = get(base, "/api/v1/evidence?limit=500", token).path("results").size();

                proxy.cutAfter(CUT);
                ProcessResult cut = client.runJvm(SMALL_HEAP, LONG, "publish", media.toString());

                assertThat(cut.exitCode()).as(cut.describe()).isZero();
                assertThat(cut.stdout()).startsWith(mediaSha + "  queued  ");
                long firstTry = proxy.bytesUp();
                assertThat(firstTry).isGreaterThanOrEqualTo(CUT);
                long held = serverHolds(base, dir.resolve("client/publish/uploads"), token);
                assertThat(held).as("what arrived before the cut, kept").isBetween(CUT - (1L << 20), CUT);
                assertThat(get(base, "/api/v1/evidence?limit=500", token).path("results").size()).as("nothing partial listed")
                        .isEqualTo(before);
                assertThat(status(base, "/api/v1/evidence/" + bundleSha, token)).as("nor under the bundle's id").isEqualTo(404);

                proxy.cutAfter(-1);
                ProcessResult resumed = client.runJvm(SMALL_HEAP, LONG, "publish", "sync", "--now");

                assertThat(resumed.exitCode()).as(resumed.describe()).isZero();
                assertThat(resumed.stdout()).isEqualTo(mediaSha + "  published  " + remote + "/#/evidence/" + bundleSha + "\n");
                long secondTry = proxy.bytesUp() - firstTry;
                assertThat(secondTry).as("the rest only (and the requests' headers), not the whole bundle again")
                        .isBetween(bundleSize - held, bundleSize - held + (64 << 10));
                for (ProcessResult r : List.of(proved, exported, cut, resumed)) {
                    assertThat(r.stdout() + r.stderr()).doesNotContain("OutOfMemoryError");
                }
            }
            assertThat(get(base, "/api/v1/evidence?media=" + mediaSha, token).path("results").size()).as("one stored copy").isEqualTo(1);
            assertThat(get(base, "/api/v1/evidence?limit=500", token).path("results").size()).isEqualTo(1);
            assertThat(get(base, "/api/v1/evidence/" + bundleSha, token).path("size").asLong()).isEqualTo(bundleSize);
            assertThat(downloadSha256(base, bundleSha, token)).as("the stored bundle is the exported one").isEqualTo(bundleSha);
            assertThat(server.isAlive()).as(Files.readString(serverLog)).isTrue();
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(Files.readString(serverLog)).doesNotContain("OutOfMemoryError");
    }

    /** {@code Upload-Offset} of the one upload under way, whose address the client kept ({@code HEAD}, direct). */
    private long serverHolds(String base, Path uploads, String token) throws Exception {
        List<Path> kept;
        try (Stream<Path> s = Files.list(uploads)) {
            kept = s.toList();
        }
        assertThat(kept).as("the upload's address, kept for the next attempt").hasSize(1);
        URI at = URI.create(Files.readString(kept.get(0)).strip());
        HttpResponse<Void> head = http.send(HttpRequest.newBuilder(URI.create(base + at.getRawPath())).method("HEAD",
                HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(head.statusCode()).isEqualTo(200);
        return Long.parseLong(head.headers().firstValue("Upload-Offset").orElseThrow());
    }

    private JsonNode get(String base, String path, String token) throws Exception {
        HttpResponse<byte[]> r = http.send(request(base, path, token), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private int status(String base, String path, String token) throws Exception {
        return http.send(request(base, path, token), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The SHA-256 of the stored bundle, read as it downloads. */
    private String downloadSha256(String base, String sha, String token) throws Exception {
        HttpResponse<InputStream> r = http.send(request(base, "/api/v1/evidence/" + sha + "/bundle", token), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new DigestInputStream(r.body(), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static HttpRequest request(String base, String path, String token) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token).timeout(Duration.ofMinutes(2)).build();
    }
}
