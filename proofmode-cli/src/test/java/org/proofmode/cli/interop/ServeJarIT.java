// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ProcessResult;

/**
 * The shaded jar runs the server: Jetty, Flyway's migrations and the web page all load from the one jar,
 * and a token made by {@code server token create} works against the running {@code serve}.
 */
class ServeJarIT {
    @TempDir
    Path dir;

    @Test
    void serve_answersVerifyEvidenceAndPage_fromTheShadedJar() throws Exception {
        Path home = dir.resolve("home");
        ProcessBuilder tb = new ProcessBuilder(List.of("java", "-jar", ProofModeJar.jar().toString(), "server", "token", "create", "it", "--scope", "admin"))
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        tb.environment().put("PROOFMODE_HOME", home.toString());
        Process tokenRun = tb.start();
        tokenRun.getOutputStream().close();
        String token = new String(tokenRun.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(tokenRun.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Path events = home.resolve("events.jsonl");
        ProcessBuilder pb = new ProcessBuilder(List.of("java", "-jar", ProofModeJar.jar().toString(), "serve", "--port", "0",
                "--log-format", "json", "--instance", "jar-1")).redirectError(events.toFile());
        pb.environment().put("PROOFMODE_HOME", home.toString());
        Process serve = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(line));
            assertThat(m.find()).as(line).isTrue();
            String base = "http://127.0.0.1:" + m.group(1);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("check a proof");
            byte[] good = Files.readAllBytes(sendersBundle());
            HttpResponse<String> verify = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/verify"))
                    .header("Content-Type", "application/zip").POST(HttpRequest.BodyPublishers.ofByteArray(good)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(verify.statusCode()).as(verify.body()).isEqualTo(200);
            assertThat(verify.body()).contains("\"verdict\" : \"VALID\"");
            assertThat(token).startsWith("pm_");
            HttpResponse<String> kept = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence"))
                    .header("Content-Type", "application/zip").header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(good)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(kept.statusCode()).as(kept.body()).isEqualTo(201);
            assertThat(home.resolve("server/evidence.db")).isNotEmptyFile();
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
        // The operator's event log, as JSON lines: start, the three requests, and the stop that SIGTERM made.
        List<String> lines = Files.readAllLines(events);
        ObjectMapper json = new ObjectMapper();
        List<String> kinds = new java.util.ArrayList<>();
        for (String l : lines) {
            JsonNode e = json.readTree(l);
            assertThat(e.get("instance").asText()).isEqualTo("jar-1");
            kinds.add(e.get("event").asText() + (e.has("status") ? " " + e.get("path").asText() + " " + e.get("status").asInt() : ""));
        }
        assertThat(kinds).containsExactly("start", "request / 200", "request /api/v1/verify 200", "request /api/v1/evidence 201", "stop");
    }

    /** A share zip of a photo proved by another home's key: VALID to the server, which does not know that key. */
    private Path sendersBundle() throws Exception {
        ProofModeJar sender = ProofModeJar.at(dir.resolve("sender"));
        ProofSet proof = ProofSet.prove(sender, TestMedia.jpeg(dir.resolve("camera"), "photo.jpg", 9));
        Path zip = dir.resolve("share.zip");
        ProcessResult r = sender.run("export", "--with-media", "-o", zip.toString(), proof.media().toString());
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return zip;
    }
}
