// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.LifecycleKeys;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.TamperCorpus;

/**
 * The web page in Debian's headless Chromium, driven by playwright-core ({@code src/test/browser}): the
 * app's good and bad bundles are uploaded through the page, on a desktop and a phone screen, and the
 * verdicts it shows are checked. Screenshots go to {@code target/browser/}. Chromium and Node.js are
 * required ({@code .ci/run} installs them); a missing one fails the test.
 */
class BrowserTest {
    private static final Path SCRIPT_DIR = Path.of("src/test/browser").toAbsolutePath();
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path home;

    @Test
    void page_showsVerdicts_appGoodAndBadBundles() throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            fail("Chromium is missing: apt-get install chromium (.ci/run installs it)");
        }
        ensureNodeModules();
        Path out = Files.createDirectories(Path.of("target", "browser").toAbsolutePath());
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            String base = "http://127.0.0.1:" + srv.server.port();
            Path located = TestBundles.located(TestBundles.signer(home.resolve("signer")), home, 7, 52.52, 13.405, Optional.of(5000.0));
            String token = srv.token("browser");
            String altered = alteredItem(srv, home.resolve("altered"), token);
            Path extra = extraBundle(home);
            Path proofOfPhoto = TestBundles.withImageHashes(TestBundles.signer(home.resolve("compare-signer")), home.resolve("compare"), 41);
            Path copy = home.resolve("copy.bmp");
            javax.imageio.ImageIO.write(javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(
                    TestBundles.entries(proofOfPhoto).get("photo-41.png"))), "bmp", copy.toFile());
            ProcessResult r = run(List.of("node", "verdicts.mjs", base, Samples.appGoodZip().toString(),
                    Samples.appBadZip().toString(), out.toString(), token, located.toString(), altered), 180,
                    Map.of("PROOFMODE_EXTRA_BUNDLE", extra.toString(), "PROOFMODE_COMPARE_A", proofOfPhoto.toString(),
                            "PROOFMODE_COMPARE_B", copy.toString()));
            assertThat(r.code).as(r.output).isZero();
            String last = r.output.lines().reduce((a, b) -> b).orElse("");
            JsonNode page = TestServer.JSON.readTree(last);
            assertThat(page.get("title").asText()).contains("ProofMode");
            assertThat(page.get("fileLabel").asText()).contains("Choose or drop files");
            for (String screen : new String[] {"desktop", "phone"}) {
                JsonNode good = page.get(screen + ".good");
                assertThat(good.get("verdict").asText()).as(screen).isEqualTo("VALID");
                assertThat(good.get("words").asText()).contains("Intact");
                assertThat(good.get("fingerprint").asText().replace(" ", "")).isEqualTo(Samples.APP_GOOD_SIGNER);
                assertThat(good.get("metadataRows").asInt()).isGreaterThan(10);
                JsonNode bad = page.get(screen + ".bad");
                assertThat(bad.get("verdict").asText()).as(screen).isEqualTo("INVALID");
                assertThat(bad.get("words").asText()).contains("Not valid");
                assertThat(out.resolve(screen + "-good.png")).isNotEmptyFile();
                assertThat(out.resolve(screen + "-bad.png")).isNotEmptyFile();
            }
            JsonNode kept = page.get("evidence");
            assertThat(kept.get("permalink").asText()).startsWith(base + "/#/evidence/" + org.proofmode.media.Digests.sha256(located));
            assertThat(kept.get("verdict").asText()).isEqualTo("VALID");
            assertThat(kept.get("custodyFirst").asText()).isEqualTo("INTAKE");
            assertThat(kept.get("maps").asInt()).isEqualTo(1);
            assertThat(kept.get("chain").asText()).startsWith("Custody log intact: 1 entries, head ");
            // The receipt the page hands out is the server's, and checks offline with the log's key.
            JsonNode logged = page.get("log");
            assertThat(logged.get("text").asText()).containsPattern("Logged as entry \\d+ of this server's public transparency log");
            byte[] receipt = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(logged.get("receipt").asText()));
            org.proofmode.tlog.TlogProof proof = org.proofmode.tlog.TlogProof.parse(receipt);
            org.proofmode.tlog.LogEntry entry = org.proofmode.tlog.LogEntry.parse(proof.extra().orElseThrow());
            assertThat(proof.check(entry.leafHash(), java.util.List.of(org.proofmode.tlog.NoteKey.parse(srv.server.logKey()))).outcome())
                    .isEqualTo(org.proofmode.tlog.TlogProof.Outcome.VALID);
            assertThat(logged.get("file").asText()).isEqualTo(entry.media().get(0) + ".tlog");
            assertThat(entry.bundle()).contains(org.proofmode.media.Digests.sha256(located));

            // The report button hands out the server's PDF report of the item, which names its REPORT custody line.
            JsonNode report = page.get("report");
            assertThat(report.get("file").asText()).isEqualTo(org.proofmode.media.Digests.sha256(located) + ".report.pdf");
            org.proofmode.testkit.ProcessResult text = org.proofmode.testkit.ExternalTool.run(List.of(
                    org.proofmode.testkit.ExternalTool.require("pdftotext").toString(), report.get("path").asText(), "-"),
                    Map.of(), java.time.Duration.ofSeconds(60));
            assertThat(text.succeeded()).as(text.describe()).isTrue();
            assertThat(text.stdout()).contains("Verdict: VALID", "Chain of custody on the evidence server", "REPORT by browser");

            JsonNode anonymous = page.get("anonymous");
            assertThat(anonymous.get("permalink").asText()).matches(java.util.regex.Pattern.quote(base) + "/#/report/[A-Za-z0-9_-]{22}");
            assertThat(anonymous.get("verdict").asText()).isEqualTo("VALID");
            assertThat(anonymous.get("line").asText()).startsWith("Verified by this server at 20");
            assertThat(anonymous.get("fingerprint").asText().replace(" ", "")).isEqualTo(Samples.APP_GOOD_SIGNER);
            assertThat(anonymous.get("unknown").asText()).contains("Not found");
            // The app's how-to text is instructions for the recipient and its SafetyNet attestation is checked: nothing
            // in the bundle is left out of the verdict.
            assertThat(anonymous.get("unchecked").asText()).isEmpty();
            org.proofmode.testkit.ProcessResult keptText = org.proofmode.testkit.ExternalTool.run(List.of(
                    org.proofmode.testkit.ExternalTool.require("pdftotext").toString(), anonymous.get("pdf").asText(), "-"),
                    Map.of(), java.time.Duration.ofSeconds(60));
            assertThat(keptText.stdout()).contains("Verdict: VALID", Samples.APP_GOOD_SIGNER);

            // The map: the whole land outline this server ships, the marker at the equirectangular position of
            // 52.52 N 13.405 E (x = lon + 180, y = 90 - lat), a close-up with the 5 km accuracy circle.
            JsonNode map = page.get("map");
            JsonNode land = TestServer.JSON.readTree(getClass().getResourceAsStream("/org/proofmode/report/land/land-110m.json"));
            assertThat(map.get("landLength").asInt()).isEqualTo(land.get("d").asText().length()).isGreaterThan(20_000);
            assertThat(map.get("markerX").asDouble()).isCloseTo(13.405 + 180, within(0.001));
            assertThat(map.get("markerY").asDouble()).isCloseTo(90 - 52.52, within(0.001));
            assertThat(map.get("label").asText()).contains("52.52, 13.405").contains("5000 m");
            assertThat(map.get("insetLand").asInt()).isPositive();
            assertThat(map.get("insetLabel").asText()).contains("km across");
            // Half the close-up (100 px) spans max(0.5, 3 * 5000 / 111320) = 0.5 degree: 200 px per degree.
            assertThat(map.get("insetAccuracyR").asDouble()).isCloseTo(5000 / 111_320.0 * 200, within(0.01));
            assertThat(map.get("osm").asText()).startsWith("https://www.openstreetmap.org/?mlat=52.52&mlon=13.405");
            assertThat(map.get("osmText").asText()).contains("leaves this page");
            assertThat(out.resolve("map.png")).isNotEmptyFile();

            // An added photo is named on the page as not checked; markup in Notes stays text.
            JsonNode extraPage = page.get("extra");
            assertThat(extraPage.get("verdict").asText()).isEqualTo("VALID");
            assertThat(extraPage.get("unchecked").asText()).startsWith("Not checked").contains("other.jpg");
            assertThat(extraPage.get("checks").toString()).contains("bundle.entry.unproved — other.jpg");
            assertThat(extraPage.get("notes").asText()).isEqualTo(org.proofmode.util.SafeText.escape(HOSTILE_NOTES));
            assertThat(extraPage.get("injected").asInt()).isZero();

            // A proof and a copy of its photo saved as BMP, compared through the page: the same pixels.
            JsonNode compared = page.get("compare");
            assertThat(compared.get("relation").asText()).isEqualTo("SAME_CONTENT");
            assertThat(compared.get("words").asText()).isEqualTo("The same content");
            assertThat(compared.get("sides").toString()).contains("bundle-41.zip").contains("copy.bmp");
            assertThat(compared.get("checks").toString()).contains("compare.pixels.identical");
            assertThat(compared.get("injected").asInt()).isZero();
            assertThat(out.resolve("desktop-compare.png")).isNotEmptyFile();

            JsonNode alteredPage = page.get("altered");
            assertThat(alteredPage.get("warning").asText()).contains("custody log has been altered").contains("First bad line: 2");
            assertThat(alteredPage.get("role").asText()).isEqualTo("alert");
            assertThat(alteredPage.get("markedRow").asText()).isEqualTo("2");
            assertThat(page.get("requests")).as("the page asks nothing of other hosts").isEmpty();
            assertThat(page.get("consoleErrors")).as("no script or CSP errors").isEmpty();
        }
    }

    private static final String HOSTILE_NOTES = "<img src=x onerror=alert(1)><script>alert(2)</script>" + TamperCorpus.HOSTILE_NOTES;

    /** An intact proof by a fresh key, with markup in its Notes, beside a photo that no proof names. */
    private static Path extraBundle(Path dir) throws Exception {
        LifecycleKeys.Key key = LifecycleKeys.primaryOnly("sender <s@example.org>");
        Map<String, byte[]> entries = new java.util.LinkedHashMap<>(key.proofEntries("photo.jpg",
                "proved bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII), LifecycleKeys.BORN.plusSeconds(600),
                Map.of("File Path", "/DCIM/photo.jpg", "Notes", HOSTILE_NOTES), key.certificate()));
        entries.put("other.jpg", jpegLike());
        return Files.write(dir.resolve("extra.zip"), TestBundles.zip(entries));
    }

    private static byte[] jpegLike() {
        byte[] b = new byte[600];
        new java.util.Random(3).nextBytes(b);
        b[0] = (byte) 0xFF;
        b[1] = (byte) 0xD8;
        b[2] = (byte) 0xFF;
        b[3] = (byte) 0xE0;
        return b;
    }

    /** Stores a good bundle, downloads it twice, then edits the first download line in the database. */
    private static String alteredItem(TestServer srv, Path dir, String token) throws Exception {
        String sha = TestServer.json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(dir)), Optional.of(token)))
                .get("sha256").asText();
        for (int i = 0; i < 2; i++) {
            assertThat(srv.get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token)).statusCode()).isEqualTo(200);
        }
        try (java.sql.Connection c = srv.db().connection(); java.sql.PreparedStatement ps = c.prepareStatement(
                "UPDATE custody SET remote = '203.0.113.9' WHERE id = (SELECT MIN(id) FROM custody WHERE evidence_sha256 = ? "
                        + "AND action = 'DOWNLOAD')")) {
            ps.setString(1, sha);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        return sha;
    }

    private static void ensureNodeModules() throws Exception {
        if (Files.isDirectory(SCRIPT_DIR.resolve("node_modules/playwright-core"))) {
            return;
        }
        ProcessResult r = run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
        if (r.code != 0) {
            fail("npm ci in " + SCRIPT_DIR + " failed: " + r.output);
        }
    }

    private record ProcessResult(int code, String output) {}

    private static ProcessResult run(List<String> cmd, long seconds) throws Exception {
        return run(cmd, seconds, Map.of());
    }

    private static ProcessResult run(List<String> cmd, long seconds, Map<String, String> env) throws Exception {
        Process p;
        try {
            ProcessBuilder b = new ProcessBuilder(cmd).directory(SCRIPT_DIR.toFile()).redirectErrorStream(true);
            b.environment().putAll(env);
            p = b.start();
        } catch (java.io.IOException e) {
            return fail(cmd.get(0) + " is missing (Node.js and npm are needed for the browser test): " + e.getMessage());
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return fail(String.join(" ", cmd) + " did not finish in " + seconds + " s");
        }
        return new ProcessResult(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
