// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.server.service.EventLog;

/** The operator's event log: JSON lines a pipeline can parse, text lines no stranger can forge. */
class EventLogTest {
    @TempDir
    Path tmp;

    private final StringWriter written = new StringWriter();

    private EventLog log(EventLog.Format format) {
        return new EventLog(new PrintWriter(written), format, Clock.fixed(Instant.parse("2026-12-05T01:02:03.456789Z"), ZoneOffset.UTC), "i-1");
    }

    private List<JsonNode> jsonLines() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String l : written.toString().split("\n")) {
            lines.add(TestServer.JSON.readTree(l));
        }
        return lines;
    }

    @Test
    void json_isOneObjectPerLine_withTimeLevelEventInstanceAndTypedFields() throws Exception {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("path", "/x\n{\"forged\":true}");
        f.put("status", 201);
        f.put("ms", 1.5);
        f.put("created", true);
        f.put("absent", null);
        log(EventLog.Format.JSON).info("request", f);
        List<JsonNode> lines = jsonLines();
        assertThat(lines).hasSize(1);
        JsonNode l = lines.get(0);
        assertThat(l.get("time").asText()).isEqualTo("2026-12-05T01:02:03.456Z");
        assertThat(l.get("level").asText()).isEqualTo("info");
        assertThat(l.get("event").asText()).isEqualTo("request");
        assertThat(l.get("instance").asText()).isEqualTo("i-1");
        assertThat(l.get("path").asText()).isEqualTo("/x\n{\"forged\":true}");
        assertThat(l.get("status").isInt()).isTrue();
        assertThat(l.get("ms").asDouble()).isEqualTo(1.5);
        assertThat(l.get("created").asBoolean()).isTrue();
        assertThat(l.has("absent")).isFalse();
    }

    @Test
    void text_escapesControlCharacters_soNoLineCanBeForged() {
        log(EventLog.Format.TEXT).warn("request", Map.of("path", "/a\n2026-12-05T00:00:00.000Z error stop \u001b[31m \"q\""));
        String out = written.toString();
        assertThat(out.lines()).hasSize(1);
        assertThat(out).startsWith("2026-12-05T01:02:03.456Z warn request instance=i-1 path=\"/a\\n2026")
                .contains("\\u001b[31m").contains("\\\"q\\\"").doesNotContain("\u001b");
    }

    @Test
    void off_writesNothing() {
        EventLog.OFF.error("request", Map.of("x", "y"));
        assertThat(written.toString()).isEmpty();
    }

    @Test
    void server_logsStartRequestsIntakesFailuresAndStop_asJsonLines() throws Exception {
        Path blobs = tmp.resolve("blobs");
        ServerConfig config = ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0)
                .withStorage(blobs, List.of());
        byte[] good = TestBundles.read(TestBundles.good(tmp.resolve("good-bundle")));
        EventLog events = new EventLog(new PrintWriter(written), EventLog.Format.JSON, Clock.systemUTC(), "intake-a");
        String token;
        try (TestServer srv = TestServer.start(config, events)) {
            token = srv.token("events");
            HttpResponse<String> kept = srv.postZip("/api/v1/evidence?name=secret-query", good, Optional.of(token));
            assertThat(kept.statusCode()).isEqualTo(201);
            String sha = TestServer.json(kept).get("sha256").asText();
            assertThat(srv.get("/api/v1/evidence/" + sha, Optional.empty()).statusCode()).isEqualTo(401);
            // The blob folder cannot take the next new bundle (a file where its folder must go): it is not kept,
            // and the operator is told why.
            Path otherBundle = TestBundles.good(tmp.resolve("other-bundle"));
            Files.writeString(blobs.resolve(org.proofmode.media.Digests.sha256(otherBundle).substring(0, 2)), "not a folder");
            byte[] other = TestBundles.read(otherBundle);
            HttpResponse<String> failed = srv.postZip("/api/v1/evidence", other, Optional.of(token));
            assertThat(failed.statusCode()).as(failed.body()).isGreaterThanOrEqualTo(500);
        }
        List<JsonNode> lines = jsonLines();
        assertThat(lines).allSatisfy(l -> assertThat(l.get("instance").asText()).isEqualTo("intake-a"));
        assertThat(lines.get(0).get("event").asText()).isEqualTo("start");
        assertThat(lines.get(0).get("database").asText()).isEqualTo("sqlite");
        assertThat(lines.get(lines.size() - 1).get("event").asText()).isEqualTo("stop");
        List<JsonNode> requests = lines.stream().filter(l -> l.get("event").asText().equals("request")).toList();
        assertThat(requests).hasSize(3);
        JsonNode intake = requests.get(0);
        assertThat(intake.get("method").asText()).isEqualTo("POST");
        assertThat(intake.get("path").asText()).isEqualTo("/api/v1/evidence");
        assertThat(intake.get("status").asInt()).isEqualTo(201);
        assertThat(intake.get("item").asText()).hasSize(64);
        assertThat(intake.get("verdict").asText()).isEqualTo("VALID");
        assertThat(intake.get("remote").asText()).isEqualTo("127.0.0.1");
        assertThat(requests.get(1).get("status").asInt()).isEqualTo(401);
        JsonNode failure = requests.get(2);
        assertThat(failure.get("level").asText()).isEqualTo("error");
        assertThat(failure.get("exception").asText()).isNotBlank();
        assertThat(failure.get("message").asText()).isNotBlank();
        assertThat(written.toString()).doesNotContain("secret-query").doesNotContain(token);
    }
}
