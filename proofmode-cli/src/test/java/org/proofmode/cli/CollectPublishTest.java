// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.publish.Publisher;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.service.EventLog;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.HttpsSite;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.TlogProof;

/**
 * The journey of issue 44 as a user makes it: a page with a photo and a video on an HTTPS site on loopback
 * (a hostile title), collected, verified TRUSTED, reported, published to an evidence server that trusts the
 * collector's key, found there by its address, shown TRUSTED with its title as the page wrote it, with
 * custody and a log entry whose receipt proves its inclusion.
 */
class CollectPublishTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TITLE = "Market fire \u001b]0;owned\u0007\u001b[2J <script>alert(1)</script>";

    @TempDir
    Path tmp;

    private HttpsSite site;
    private ProofServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void setUp() {
        site = HttpsSite.start();
    }

    @AfterEach
    void tearDown() {
        site.close();
        if (server != null) {
            server.close();
        }
    }

    private JsonNode get(String path, String token) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).as(path + ": " + new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void collectVerifyReportPublish_findsTheCaptureTrustedOnTheServer_forAPageWithPhotoVideoAndAHostileTitle() throws Exception {
        Path video = Ffmpeg.make(tmp.resolve("clip.mp4"), "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-pix_fmt", "yuv420p");
        site.bytes("/photo.jpg", "image/jpeg", Files.readAllBytes(OwnMedia.examplePhoto()))
                .bytes("/clip.mp4", "video/mp4", Files.readAllBytes(video))
                .bytes("/post", "text/html; charset=utf-8", ("<html><head><title>" + TITLE + "</title></head><body>"
                        + "<img src=\"photo.jpg\"><video><source src=\"/clip.mp4\" type=\"video/mp4\"></video></body></html>")
                        .getBytes(StandardCharsets.UTF_8));
        Cli cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "collector passphrase");
        Path ca = site.writeCa(tmp.resolve("ca.pem"));
        Path folder = tmp.resolve("post");
        String page = site.uri("/post").toString();

        Cli.Result collected = cli.run("collect", "--ca", ca.toString(), "--out", folder.toString(), page);
        assertThat(collected.exit()).as(collected.err()).isZero();
        Cli.Result verified = cli.run("verify", folder.toString());
        assertThat(verified.exit()).as(verified.out()).isZero();
        assertThat(verified.out()).contains("TRUSTED").doesNotContain("\u001b");
        Cli.Result reported = cli.run("report", "-o", tmp.resolve("post.report.pdf").toString(), folder.toString());
        assertThat(reported.exit()).as(reported.err()).isZero();
        assertThat(tmp.resolve("post.report.pdf")).isNotEmptyFile();

        server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0).withStorage(
                tmp.resolve("server").resolve("blobs"), OpenPgpKeys.readCertificates(Files.readAllBytes(folder.resolve("pubkey.asc")), "pubkey.asc")));
        String token = new TokenStore(server.database()).create("desk").secret();
        Path tokenFile = Files.writeString(tmp.resolve("token"), token + "\n");
        assertThat(cli.run("publish", "login", "--token-file", tokenFile.toString(), "http://127.0.0.1:" + server.port()).exit()).isZero();

        Cli.Result published = cli.run("publish", folder.toString());
        Cli.Result again = cli.run("publish", folder.toString());

        assertThat(published.exit()).as(published.err()).isZero();
        assertThat(published.out()).contains("  published  http://127.0.0.1:" + server.port() + "/#/evidence/");
        assertThat(again.out()).as("the same folder, the same item").isEqualTo(published.out());
        String sha = published.out().strip().substring(published.out().strip().lastIndexOf('/') + 1);
        JsonNode found = get("/api/v1/collections?url=" + URLEncoder.encode(page, StandardCharsets.UTF_8), token);
        assertThat(found.get("results").findValuesAsText("evidence")).containsExactly(sha);
        assertThat(found.at("/results/0/verdict").asText()).isEqualTo("TRUSTED");
        JsonNode item = get("/api/v1/evidence/" + sha, token);
        assertThat(item.get("verdict").asText()).isEqualTo("TRUSTED");
        assertThat(item.at("/report/collection/title").asText()).isEqualTo(TITLE);
        assertThat(item.at("/report/collection/media")).hasSize(2);
        assertThat(item.at("/report/proofs")).hasSize(2);
        assertThat(item.at("/report/proofs").findValuesAsText("verdict")).containsOnly("TRUSTED");
        assertThat(item.get("custody").findValuesAsText("action")).containsExactly("INTAKE", "RESUBMIT");

        server.integrateLog();
        HttpResponse<byte[]> receipt = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/api/v1/evidence/" + sha + "/receipt")).header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(receipt.statusCode()).isEqualTo(200);
        TlogProof proof = TlogProof.parse(receipt.body());
        LogEntry entry = LogEntry.parse(proof.extra().orElseThrow());
        assertThat(entry.bundle()).contains(sha);
        assertThat(proof.check(entry.leafHash(), List.of(NoteKey.parse(server.logKey()))).outcome()).isEqualTo(TlogProof.Outcome.VALID);
    }

    @Test
    void publish_sendsALargeCollectionByResumableUpload_forAWarcOverEightMib() throws Exception {
        byte[] noise = new byte[(int) Publisher.RESUMABLE_FROM + (1 << 20)];
        new java.util.Random(8).nextBytes(noise);
        site.bytes("/large", "text/html", ("<html><head><title>large</title></head><body><!-- "
                + java.util.Base64.getEncoder().encodeToString(noise) + " --></body></html>").getBytes(StandardCharsets.US_ASCII));
        Cli cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "collector passphrase");
        Path folder = tmp.resolve("large");
        assertThat(cli.run("collect", "--ca", site.writeCa(tmp.resolve("ca.pem")).toString(), "--out", folder.toString(),
                site.uri("/large").toString()).exit()).isZero();
        assertThat(Files.size(folder.resolve("capture.warc.gz"))).isGreaterThan(Publisher.RESUMABLE_FROM);
        java.io.StringWriter events = new java.io.StringWriter();
        server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0),
                new EventLog(new java.io.PrintWriter(events, true), EventLog.Format.TEXT, java.time.Clock.systemUTC(), "test"));
        String token = new TokenStore(server.database()).create("desk").secret();
        Path tokenFile = Files.writeString(tmp.resolve("token"), token + "\n");
        assertThat(cli.run("publish", "login", "--token-file", tokenFile.toString(), "http://127.0.0.1:" + server.port()).exit()).isZero();

        Cli.Result published = cli.run("publish", folder.toString());

        assertThat(published.exit()).as(published.err()).isZero();
        assertThat(events.toString()).contains("/api/v1/uploads");
        String sha = published.out().strip().substring(published.out().strip().lastIndexOf('/') + 1);
        JsonNode found = get("/api/v1/collections?url=" + URLEncoder.encode(site.uri("/large").toString(), StandardCharsets.UTF_8), token);
        assertThat(found.get("results").findValuesAsText("evidence")).containsExactly(sha);
        assertThat(found.at("/results/0/verdict").asText()).isEqualTo("VALID");
    }
}
