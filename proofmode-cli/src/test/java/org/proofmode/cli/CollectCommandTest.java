// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.CalendarStub;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.HttpsSite;
import org.proofmode.testkit.OpensslTsa;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SocksRecorder;
import org.proofmode.testkit.Sqv;
import org.proofmode.testkit.Warcio;

/**
 * {@code proofmode collect} against an HTTPS site on loopback with a test CA made here: the capture,
 * its verification, the readers of others (warcio, openssl, sqv), and each bound passed tenfold.
 */
class CollectCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli cli;
    private HttpsSite site;
    private Path ca;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "collector passphrase");
        site = HttpsSite.start();
        ca = site.writeCa(tmp.resolve("ca.pem"));
    }

    @AfterEach
    void tearDown() {
        site.close();
    }

    private Cli.Result collect(Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("collect", "--ca", ca.toString(), "--out", out.toString()));
        args.addAll(List.of(more));
        return cli.run(args.toArray(String[]::new));
    }

    @Test
    void collect_keepsPageAndMediaVerifiedByOthers_forAPageWithPhotoAndVideo() throws Exception {
        Path photo = OwnMedia.examplePhoto();
        Path video = Ffmpeg.make(tmp.resolve("clip.mp4"), "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-pix_fmt", "yuv420p");
        site.bytes("/photo.jpg", "image/jpeg", Files.readAllBytes(photo)).bytes("/clip.mp4", "video/mp4", Files.readAllBytes(video))
                .bytes("/post", "text/html; charset=utf-8", ("<html><head><title>Market fire</title>"
                        + "<meta property=\"og:image\" content=\"/photo.jpg\"></head><body><img src=\"photo.jpg\">"
                        + "<video><source src=\"/clip.mp4\" type=\"video/mp4\"></video></body></html>").getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("post1");

        Cli.Result r = collect(out, "--purpose", "incident 42", "--notes", "seen on the city forum", site.uri("/post").toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("title: Market fire").contains("2 media proved");
        JsonNode rec = JSON.readTree(out.resolve("collection.json").toFile());
        assertThat(rec.get("url").asText()).isEqualTo(site.uri("/post").toString());
        assertThat(rec.get("purpose").asText()).isEqualTo("incident 42");
        assertThat(rec.get("notes").asText()).isEqualTo("seen on the city forum");
        assertThat(rec.get("address").asText()).isEqualTo("127.0.0.1");
        assertThat(rec.get("tls").get("subject").asText()).contains("CN=127.0.0.1");
        assertThat(rec.get("media")).hasSize(2);
        String h = Digests.sha256(out.resolve("collection.json"));
        Path photoCopy = out.resolve(rec.get("media").get(0).get("file").asText());
        assertThat(Digests.sha256(photoCopy)).isEqualTo(Digests.sha256(photo));

        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).as(v.out() + v.err()).isZero();
        assertThat(v.out()).containsIgnoringCase("trusted").contains("collect.warc.records.match").contains("collect.tls.chain.valid");
        Cli.Result vm = cli.run("verify", photoCopy.toString());
        assertThat(vm.exit()).as(vm.out() + vm.err()).isZero();
        String photoHash = Digests.sha256(photoCopy);
        JsonNode proof = JSON.readTree(tmp.resolve("home/proofs").resolve(photoHash).resolve(photoHash + ".proof.json").toFile());
        assertThat(proof.get("Collection.Page").asText()).isEqualTo(site.uri("/post").toString());
        assertThat(proof.get("Collection.Source").asText()).isEqualTo(site.uri("/photo.jpg").toString());
        assertThat(proof.get("Collection.Record").asText()).isEqualTo(h);

        ProcessResult idx = Warcio.index(out.resolve("capture.warc.gz"));
        assertThat(idx.succeeded()).as(idx.describe()).isTrue();
        assertThat(idx.stdout()).contains(site.uri("/post").toString()).contains(site.uri("/photo.jpg").toString())
                .contains(site.uri("/clip.mp4").toString()).contains("response").contains("metadata");
        ProcessResult openssl = ExternalTool.run(List.of(ExternalTool.require("openssl").toString(), "verify", "-CAfile", ca.toString(),
                out.resolve("tls-chain.pem").toString()), Map.of(), Duration.ofSeconds(30));
        assertThat(openssl.succeeded()).as(openssl.describe()).isTrue();
        ProcessResult sqvRecord = Sqv.verify(out.resolve("pubkey.asc"), out.resolve(h + ".asc"), out.resolve("collection.json"));
        assertThat(sqvRecord.succeeded()).as(sqvRecord.describe()).isTrue();
        ProcessResult sqvWarc = Sqv.verify(out.resolve("pubkey.asc"), out.resolve("capture.warc.gz.asc"), out.resolve("capture.warc.gz"));
        assertThat(sqvWarc.succeeded()).as(sqvWarc.describe()).isTrue();
    }

    private static String lastLine(String err) {
        List<String> lines = err.lines().filter(l -> !l.contains("created device key")).toList();
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }

    @Test
    void verify_failsWithWarcMismatch_whenTheWarcChanged() throws Exception {
        site.bytes("/p", "text/html", "<title>t</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("c");
        assertThat(collect(out, site.uri("/p").toString()).exit()).isZero();
        byte[] w = Files.readAllBytes(out.resolve("capture.warc.gz"));
        w[w.length / 2] ^= 1;
        Files.write(out.resolve("capture.warc.gz"), w);

        Cli.Result v = cli.run("verify", out.toString());

        assertThat(v.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(v.out()).contains("collect.warc.digest.mismatch");
    }

    @Test
    void collect_cutsTheBodyAtTheBound_forAResponseTenTimesLonger() throws Exception {
        int bound = 64 * 1024;
        site.page("/big", x -> {
            x.getResponseHeaders().set("Content-Type", "application/octet-stream");
            x.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[8192];
            try (OutputStream o = x.getResponseBody()) {
                for (int i = 0; i < 10 * bound / chunk.length; i++) {
                    o.write(chunk);
                }
            } catch (java.io.IOException e) {
                // the collector hung up at its bound
            }
        });
        Path out = tmp.resolve("big");

        Cli.Result r = collect(out, "--max-bytes", String.valueOf(bound), site.uri("/big").toString());

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode resp = JSON.readTree(out.resolve("collection.json").toFile()).get("records").get(1);
        assertThat(resp.get("length").asLong()).isEqualTo(bound);
        assertThat(resp.get("truncated").asText()).isEqualTo("length");
        assertThat(Files.size(out.resolve("capture.warc.gz"))).isLessThan(2L * bound);
        assertThat(cli.run("verify", out.toString()).exit()).isZero();
    }

    @Test
    void collect_cutsTheBodyByTime_forAResponseTenTimesSlower() throws Exception {
        site.page("/slow", x -> {
            x.getResponseHeaders().set("Content-Type", "text/plain");
            x.sendResponseHeaders(200, 0);
            try (OutputStream o = x.getResponseBody()) {
                for (int i = 0; i < 100; i++) { // 10 s in all, ten times the bound
                    o.write('x');
                    o.flush();
                    Thread.sleep(100);
                }
            } catch (java.io.IOException | InterruptedException e) {
                // the collector hung up at its bound
            }
        });
        Path out = tmp.resolve("slow");
        long start = System.nanoTime();

        Cli.Result r = collect(out, "--timeout", "1", site.uri("/slow").toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        JsonNode resp = JSON.readTree(out.resolve("collection.json").toFile()).get("records").get(1);
        assertThat(resp.get("truncated").asText()).isEqualTo("time");
    }

    @Test
    void collect_failsAndWritesNothing_forTenTimesTheRedirectBound() throws Exception {
        for (int i = 0; i < 20; i++) {
            int next = i + 1;
            site.page("/r" + i, x -> HttpsSite.redirect(x, "/r" + next));
        }
        site.page("/loop", x -> HttpsSite.redirect(x, "/loop"));
        Path out = tmp.resolve("out");

        Cli.Result chain = collect(out, "--max-redirects", "2", site.uri("/r0").toString());
        Cli.Result loop = collect(out, site.uri("/loop").toString());

        for (Cli.Result r : List.of(chain, loop)) {
            assertThat(r.exit()).isEqualTo(ExitCodes.TIMESTAMP_UNREACHABLE);
            assertThat(lastLine(r.err())).contains("redirects");
        }
        assertThat(out).doesNotExist();
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".collect-"));
        }
    }

    @Test
    void collect_failsWithOneLine_forADeadLink() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path out = tmp.resolve("dead");

        Cli.Result r = collect(out, "https://127.0.0.1:" + port + "/gone");

        assertThat(r.exit()).isEqualTo(ExitCodes.TIMESTAMP_UNREACHABLE);
        assertThat(lastLine(r.err())).contains("cannot be reached").doesNotContain("Exception");
        assertThat(r.err().lines().filter(l -> !l.contains("created device key"))).hasSize(1);
        assertThat(out).doesNotExist();
    }

    @Test
    void collect_fetchesAtMostTheBound_forTenTimesAsManyMedia() throws Exception {
        StringBuilder html = new StringBuilder("<title>many</title>");
        byte[] jpeg = Files.readAllBytes(OwnMedia.examplePhoto());
        for (int i = 0; i < 20; i++) {
            site.bytes("/m" + i + ".jpg", "image/jpeg", jpeg);
            html.append("<img src=\"/m").append(i).append(".jpg\">");
        }
        site.bytes("/many", "text/html", html.toString().getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("many");

        Cli.Result r = collect(out, "--max-media", "2", site.uri("/many").toString());

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode rec = JSON.readTree(out.resolve("collection.json").toFile());
        assertThat(rec.get("media")).hasSize(2);
        assertThat(rec.get("skipped")).hasSize(18);
    }

    @Test
    void collect_showsAHostileTitleEscaped_forTerminalEscapesInTheTitle() throws Exception {
        site.bytes("/evil", "text/html", "<title>\u001b]0;owned\u0007\u001b[2Jhi</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("evil");

        Cli.Result r = collect(out, site.uri("/evil").toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("\u001b").doesNotContain("\u0007").contains("title: ");
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.out()).doesNotContain("\u001b")
                .as("escaped once, by the printer, not once more by the check").contains("owned\\u0007\\u001b[2Jhi\")")
                .doesNotContain("\\\\u001b");
    }

    @Test
    void report_showsTheCaptureWithTheTitleHtmlEscaped_forAHostilePage() throws Exception {
        site.bytes("/h", "text/html", "<title>&lt;script&gt;alert(1)&lt;/script&gt;\u001b[2J</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("h");
        assertThat(collect(out, site.uri("/h").toString()).exit()).isZero();
        Path html = tmp.resolve("r.html");

        Cli.Result r = cli.run("report", "--format", "html", "-o", html.toString(), out.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("collect.capture").contains(site.uri("/h").toString()).contains("CN=127.0.0.1")
                .contains("collect.warc.records.match").contains("&lt;script&gt;alert(1)").doesNotContain("<script>alert(1)")
                .doesNotContain("\u001b");
    }

    @Test
    void collect_goesThroughTheProxyByName_forAnOnionAddress() throws Exception {
        site.bytes("/p", "text/html", "<title>hidden</title>".getBytes(StandardCharsets.UTF_8));
        String url = "https://" + HttpsSite.ONION + ":" + site.port() + "/p";
        Path direct = tmp.resolve("direct");
        Path out = tmp.resolve("onion");

        Cli.Result refused = collect(direct, url);
        Cli.Result r;
        try (SocksRecorder socks = new SocksRecorder(Map.of(HttpsSite.ONION, new java.net.InetSocketAddress("127.0.0.1", site.port())))) {
            r = collect(out, "--proxy", socks.url(), url);
            assertThat(socks.requests()).isNotEmpty().allMatch(q -> q.addressType() == SocksRecorder.DOMAIN && q.host().equals(HttpsSite.ONION));
        }

        assertThat(refused.exit()).isEqualTo(ExitCodes.INCOMPATIBLE_OPTIONS);
        assertThat(lastLine(refused.err())).contains("only through Tor");
        assertThat(direct).doesNotExist();
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode rec = JSON.readTree(out.resolve("collection.json").toFile());
        assertThat(rec.has("address")).isFalse();
        assertThat(rec.get("method").asText()).contains("through the proxy socks5h://");
    }

    @Test
    void verify_checksTheRecordsTimeStamp_forACollectionStampedByATsa() throws Exception {
        site.bytes("/p", "text/html", "<title>t</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("stamped");
        try (OpensslTsa tsa = OpensslTsa.start(tmp.resolve("tsa"), 0)) {
            Cli.Result r = collect(out, "--tsa", tsa.url().toString(), "--tsa-trust", tsa.caPem().toString(), site.uri("/p").toString());
            assertThat(r.exit()).as(r.err()).isZero();

            Cli.Result v = cli.run("verify", "--tsa-trust", tsa.caPem().toString(), out.toString());

            assertThat(v.exit()).as(v.out()).isZero();
            assertThat(v.out()).contains("timestamp.rfc3161.valid");
        }
    }

    @Test
    void verify_failsTheRecordSignature_whenTheRecordWasEditedAndResigned() throws Exception {
        site.bytes("/p", "text/html", "<title>t</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("c");
        assertThat(collect(out, site.uri("/p").toString()).exit()).isZero();
        String h = Digests.sha256(out.resolve("collection.json"));
        String edited = Files.readString(out.resolve("collection.json")).replace("/p\"", "/q\"");
        Files.writeString(out.resolve("collection.json"), edited);
        // The old signature now stands under the new record's name: it must not verify.
        Files.move(out.resolve(h + ".asc"), out.resolve(Digests.sha256(out.resolve("collection.json")) + ".asc"));

        Cli.Result v = cli.run("verify", out.toString());

        assertThat(v.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(v.out()).contains("collect.record.signature.invalid");
    }

    @Test
    void collect_cutsEveryBodyAtTheBound_forManyCollectorsAtOnce() throws Exception {
        int bound = 32 * 1024;
        site.page("/big", x -> {
            x.getResponseHeaders().set("Content-Type", "application/octet-stream");
            x.sendResponseHeaders(200, 10L * bound);
            try (OutputStream o = x.getResponseBody()) {
                o.write(new byte[10 * bound]);
            } catch (java.io.IOException e) {
                // the collector hung up at its bound
            }
        });
        int clients = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        try {
            List<java.util.concurrent.Future<Cli.Result>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Cli own = new Cli(tmp.resolve("home" + i)).env("PROOFMODE_PASSPHRASE", "p" + i);
                Path out = tmp.resolve("big" + i);
                runs.add(pool.submit(() -> own.run("collect", "--ca", ca.toString(), "--max-bytes", String.valueOf(bound), "--out",
                        out.toString(), site.uri("/big").toString())));
            }
            for (int i = 0; i < clients; i++) {
                Cli.Result r = runs.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(r.exit()).as(r.err()).isZero();
                JsonNode resp = JSON.readTree(tmp.resolve("big" + i).resolve("collection.json").toFile()).get("records").get(1);
                assertThat(resp.get("length").asLong()).isEqualTo(bound);
                assertThat(resp.get("truncated").asText()).isEqualTo("length");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void verify_checksTheRecordsOpenTimestamp_forACollectionSentToACalendar() throws Exception {
        site.bytes("/p", "text/html", "<title>t</title>".getBytes(StandardCharsets.UTF_8));
        Path out = tmp.resolve("ots");
        try (CalendarStub cal = CalendarStub.start(0)) {
            Cli.Result r = collect(out, "--calendar", cal.url().toString(), site.uri("/p").toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(cal.submissions()).isEqualTo(1);
        }
        String h = Digests.sha256(out.resolve("collection.json"));
        assertThat(out.resolve(h + ".ots")).isRegularFile();

        Cli.Result v = cli.run("verify", out.toString());

        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("timestamp.ots.");
    }

    @Test
    void collect_failsAtTheBoundAndWritesNothing_forAServerSilentTenTimesLonger() throws Exception {
        site.page("/mute", x -> {
            try {
                Thread.sleep(10_000); // ten times the bound below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.close();
        });
        Path out = tmp.resolve("mute");
        long start = System.nanoTime();

        Cli.Result r = collect(out, "--timeout", "1", site.uri("/mute").toString());

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        assertThat(r.exit()).isEqualTo(ExitCodes.TIMESTAMP_UNREACHABLE);
        assertThat(lastLine(r.err())).contains("no answer within 1 s");
        assertThat(out).doesNotExist();
    }
}
