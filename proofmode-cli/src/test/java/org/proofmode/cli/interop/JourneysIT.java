// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.ExitCodes;
import org.proofmode.testkit.BrowserScript;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Samples;

/**
 * The first hour with ProofMode, as people spend it: each test is one journey, replayed with the built jar
 * as separate processes from a fresh home, with the tools a stranger has (unzip, sha256sum, gpg, a browser).
 * A failing step prints what the person saw: the command, its exit code and both of its streams.
 */
class JourneysIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Nothing a journey started (an agent, a server, a browser) outlives it. */
    @AfterEach
    void nothingLeftBehind() {
        List<ProcessHandle> left = ProcessHandle.allProcesses().filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> p.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false)).toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertThat(left).as("processes of this journey still running").isEmpty();
    }

    @Test
    void proveAFolderOfPhotos_thenVerifyThatFolder_everyPhotoTrusted() throws IOException {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path photos = JourneyMedia.photos(dir.resolve("photos"), 3);

        ProcessResult proved = pm.run("prove", photos.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        ProcessResult verified = pm.run("verify", photos.toString());

        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).as(verified.describe()).doesNotContainPattern(": (INVALID|INCOMPLETE|VALID)\\b");
        for (Path photo : JourneyMedia.list(photos)) {
            assertThat(verified.stdout()).as(verified.describe())
                    .containsPattern("(?m)^.*" + Pattern.quote(photo.getFileName().toString()) + ".*TRUSTED");
        }
    }

    @Test
    void shareAZip_thenAStrangerFollowsItsHowTo_withSha256sumAndGpg() throws IOException {
        Path zip = JourneyMedia.share(ProofModeJar.at(dir.resolve("home")), dir, 2);
        Path unpacked = Files.createDirectories(dir.resolve("stranger"));
        ProcessResult unzip = ExternalTool.run(List.of(ExternalTool.require("unzip").toString(), "-q", zip.toString(), "-d",
                unpacked.toString()), Map.of(), Duration.ofSeconds(60));
        assertThat(unzip.exitCode()).as(unzip.describe()).isZero();
        String howTo = Files.readString(unpacked.resolve("HowToVerifyProofData.txt"));

        StrangersCheck check = StrangersCheck.follow(howTo, unpacked, dir.resolve("gnupg"));

        assertThat(check.problems()).as("following HowToVerifyProofData.txt:\n" + howTo).isEmpty();
        assertThat(check.hashed()).as("every media file is hashed as the instructions say").containsExactlyInAnyOrderElementsOf(
                JourneyMedia.names(unpacked, n -> !n.endsWith(".asc") && !n.contains(".proof.") && !n.endsWith(".txt")));
        assertThat(check.verified()).as("every signature is checked as the instructions say").containsExactlyInAnyOrderElementsOf(
                JourneyMedia.names(unpacked, n -> n.endsWith(".asc") && !n.equals("pubkey.asc")));
    }

    @Test
    void serveTheDesk_hundredVisits_thenCheckAZipOnThePage_onDesktopAndPhone_thenGetItsReport() throws Exception {
        Path zip = JourneyMedia.share(ProofModeJar.at(dir.resolve("sender")), dir, 3);
        Path desk = dir.resolve("desk");
        Path events = Files.createDirectories(desk).resolve("serve.err");
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                ProofModeJar.jar().toString(), "serve", "--bind", "127.0.0.1", "--port", "0")).redirectError(events.toFile());
        pb.environment().remove("PROOFMODE_PASSPHRASE");
        pb.environment().put("PROOFMODE_HOME", desk.toString());
        Process serve = pb.start();
        try {
            String line = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(line));
            assertThat(m.find()).as("serve printed " + line + "; stderr: " + Files.readString(events)).isTrue();
            int port = Integer.parseInt(m.group(1));
            String base = "http://127.0.0.1:" + port;

            List<String> statuses = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                statuses.add(status(port, "/"));
            }
            assertThat(statuses).as("100 visits of the page, one after another, each on a new connection: " + runs(statuses))
                    .containsOnly("200");

            Path shots = Files.createDirectories(Path.of("target", "journeys").toAbsolutePath());
            // The person ticks "Keep a link to this result" (by keyboard) and checks the zip, on a desktop and on a phone.
            ProcessResult r = BrowserScript.run(repository().resolve("proofmode-server/src/test/browser"), "first-look.mjs",
                    List.of(base, zip.toString(), shots.toString(), "keep"), Map.of(), Duration.ofSeconds(120));
            assertThat(r.exitCode()).as(r.describe()).isZero();
            JsonNode page = JSON.readTree(BrowserScript.lastLine(r));
            List<String> permalinks = new ArrayList<>();
            for (String screen : List.of("desktop", "phone")) {
                JsonNode s = page.get("screens").get(screen);
                String seen = screen + " (screenshot " + shots.resolve("first-look-" + screen + ".png") + "): " + s;
                assertThat(s.get("verdict").asText()).as(seen).isEqualTo("VALID");
                assertThat(s.get("top").asDouble()).as(seen).isGreaterThanOrEqualTo(0);
                assertThat(s.get("bottom").asDouble()).as(seen).isLessThanOrEqualTo(s.get("innerHeight").asDouble());
                assertThat(s.get("scrollWidth").asInt()).as(seen).isLessThanOrEqualTo(s.get("innerWidth").asInt());
                assertThat(s.get("permalink").asText()).as(seen).startsWith(base + "/#/report/");
                permalinks.add(s.get("permalink").asText());
            }
            assertThat(page.get("consoleErrors")).as("no script errors").isEmpty();

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String id = permalinks.get(1).substring((base + "/#/report/").length());
            HttpResponse<String> report = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/reports/" + id))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
            assertThat(JSON.readTree(report.body()).get("report").get("verdict").asText()).as(report.body()).isEqualTo("VALID");
            HttpResponse<byte[]> pdf = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/reports/" + id + "/pdf"))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(pdf.statusCode()).isEqualTo(200);
            assertThat(new String(pdf.body(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("%PDF-");
        } finally {
            serve.destroy();
            if (!serve.waitFor(30, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    @Test
    void encryptedHome_proveThenVerify_withPassphraseFile() throws IOException {
        ProofModeJar pm = ProofModeJar.withoutPassphrase(dir.resolve("home"));
        Path passphrase = Files.writeString(dir.resolve("passphrase.txt"), ProofModeJar.PASSPHRASE + "\n");
        Path photo = JourneyMedia.list(JourneyMedia.photos(dir.resolve("photos"), 1)).get(0);

        ProcessResult created = pm.run("keys", "create", "--encrypt-store", "--passphrase-file", passphrase.toString());
        assertThat(created.exitCode()).as(created.describe()).isZero();
        ProcessResult proved = pm.run("prove", "--passphrase-file", passphrase.toString(), photo.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        ProcessResult verified = pm.run("verify", "--passphrase-file", passphrase.toString(), photo.toString());

        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).as(verified.describe()).contains("TRUSTED");
    }

    @Test
    void compareCopiesOfAVideo_reencodeIsPerceptuallyClose_excerptIsFound_spliceIsNot() {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path original = Ffmpeg.make(dir.resolve("original.mp4"), "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=4", "-f",
                "lavfi", "-i", "sine=duration=4", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest");
        Path reencoded = Ffmpeg.make(dir.resolve("reencoded.mp4"), "-i", original.toString(), "-c:v", "libx264", "-c:a", "copy");
        Path excerpt = Ffmpeg.make(dir.resolve("excerpt.mp4"), "-ss", "1", "-i", original.toString(), "-t", "2", "-c", "copy");
        Path other = Ffmpeg.make(dir.resolve("other.mp4"), "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-c:v",
                "libx264", "-pix_fmt", "yuv420p");
        // The first two seconds of the original, then two seconds of another video.
        Path splice = Ffmpeg.make(dir.resolve("splice.mp4"), "-i", original.toString(), "-i", other.toString(), "-filter_complex",
                "[0:v]trim=0:2,setpts=PTS-STARTPTS[a];[1:v]trim=0:2,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1[v]", "-map", "[v]",
                "-c:v", "libx264", "-pix_fmt", "yuv420p");

        ProcessResult re = pm.run("compare", original.toString(), reencoded.toString());
        // A re-encode decodes to other pixels: perceptually close, said as a warning that matches its words, never as FAIL.
        assertThat(re.stdout()).as(re.describe()).doesNotContainPattern("(?m)^\\s*FAIL\\s")
                .containsPattern("(?m)^\\s*WARN\\s+compare\\.perceptual\\.close");
        assertThat(re.exitCode()).as(re.describe()).isEqualTo(ExitCodes.CLOSE);
        assertThat(re.stdout().toLowerCase(Locale.ROOT)).as(re.describe()).contains("perceptually close, not the same");

        ProcessResult cut = pm.run("compare", original.toString(), excerpt.toString());
        assertThat(cut.exitCode()).as(cut.describe()).isZero();
        assertThat(cut.stdout()).as(cut.describe()).containsPattern("(?m)^\\s*PASS\\s+compare\\.frames\\.excerpt");

        ProcessResult spliced = pm.run("compare", original.toString(), splice.toString());
        assertThat(spliced.exitCode()).as(spliced.describe()).isNotZero();
        assertThat(spliced.stdout()).as(spliced.describe()).doesNotContainPattern("(?m)^\\s*PASS\\s+compare\\.frames\\.excerpt")
                .doesNotContainPattern("(?m)^excerpt");
    }

    /** The repository, where the server's browser scripts are. */
    private static Path repository() {
        String root = System.getProperty(Samples.ROOT_PROPERTY);
        return root != null ? Path.of(root) : fail("no repository root: run the integration tests with Maven, which sets "
                + Samples.ROOT_PROPERTY);
    }

    /** Answers in runs of the same, in order: "32 × 200, then 68 × closed without an answer". */
    private static String runs(List<String> answers) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < answers.size()) {
            int j = i;
            while (j < answers.size() && answers.get(j).equals(answers.get(i))) {
                j++;
            }
            text.append(text.length() == 0 ? "" : ", then ").append(j - i).append(" × ").append(answers.get(i));
            i = j;
        }
        return text.toString();
    }

    /** The status code of {@code GET path} on a connection of its own, closed after the answer, or what went wrong. */
    private static String status(int port, String path) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return line == null ? "closed without an answer" : line.split(" ")[1];
        } catch (IOException e) {
            return e.toString();
        }
    }
}
