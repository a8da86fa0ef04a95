// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Permalinks to kept verification reports; part of {@link ApiContract}, so run on every database engine. */
interface ReportContract {
    /** The server under test. */
    TestServer srv();

    /** An upload token of it. */
    String token();

    /** A folder for the test's files. */
    Path tmp();

    /** The JDBC URL of another fresh, empty database (a file in {@code dir} for SQLite). */
    String freshJdbcUrl(Path dir) throws Exception;

    @Test
    default void verify_keepsReportBehindPermalink_keepTrue() throws Exception {
        HttpResponse<String> r = srv().postZip("/api/v1/verify?keep=true&name=good.zip", TestBundles.read(TestBundles.good(tmp().resolve("good-bundle"))),
                Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ObjectNode answer = (ObjectNode) json(r);
        String id = answer.get("reportId").asText();
        assertThat(id).matches("[A-Za-z0-9_-]{22}");
        assertThat(answer.get("permalink").asText()).isEqualTo("/#/report/" + id);
        assertThat(answer.get("reportUrl").asText()).isEqualTo("/api/v1/reports/" + id);

        HttpResponse<String> got = srv().get("/api/v1/reports/" + id, Optional.empty());
        assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
        JsonNode kept = json(got);
        assertThat(kept.get("verifiedAt").asText()).isEqualTo(answer.get("verifiedAt").asText());
        assertThat(kept.get("expiresAt").asText()).isGreaterThan(kept.get("verifiedAt").asText());
        assertThat(kept.get("permalink").asText()).isEqualTo("/#/report/" + id);
        for (String f : new String[] {"reportId", "permalink", "reportUrl", "verifiedAt", "expiresAt"}) {
            answer.remove(f);
        }
        assertThat(kept.get("report")).isEqualTo(answer);
        assertThat(kept.at("/report/verdict").asText()).isEqualTo("VALID");
    }

    @Test
    default void reports_pdf_isTheKeptResultAsADocument() throws Exception {
        HttpResponse<String> r = srv().postZip("/api/v1/verify?keep=true&name=good.zip", TestBundles.read(TestBundles.good(tmp().resolve("pdf-bundle"))),
                Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = json(r);
        String id = answer.get("reportId").asText();
        HttpResponse<byte[]> pdf = srv().http.send(java.net.http.HttpRequest.newBuilder(srv().uri("/api/v1/reports/" + id + "/pdf")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(pdf.statusCode()).isEqualTo(200);
        assertThat(pdf.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/pdf"));
        Path file = Files.write(tmp().resolve("kept-" + id + ".pdf"), pdf.body());
        org.proofmode.testkit.ProcessResult text = org.proofmode.testkit.ExternalTool.run(java.util.List.of(
                org.proofmode.testkit.ExternalTool.require("pdftotext").toString(), file.toString(), "-"), java.util.Map.of(),
                java.time.Duration.ofSeconds(60));
        assertThat(text.succeeded()).as(text.describe()).isTrue();
        assertThat(text.stdout()).contains("Verdict: VALID", answer.at("/proofs/0/sha256").asText(), "were not kept with this result");
        for (JsonNode c : answer.at("/proofs/0/checks")) {
            assertThat(text.stdout()).contains(c.get("code").asText());
        }
        assertThat(srv().get("/api/v1/reports/AAAAAAAAAAAAAAAAAAAAAA/pdf", Optional.empty()).statusCode()).isEqualTo(404);
    }

    @Test
    default void reportsPdf_isDatedWhenMade_orByDate_andShowsTheVerificationTime() throws Exception {
        HttpResponse<String> r = srv().postZip("/api/v1/verify?keep=true&name=good.zip", TestBundles.read(TestBundles.good(tmp().resolve("dated-bundle"))),
                Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String id = json(r).get("reportId").asText();
        String verifiedAt = json(r).get("verifiedAt").asText();
        Thread.sleep(1_100);
        java.time.Instant before = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String now = pdfText(id, "");
        java.time.Instant after = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        assertThat(now).contains("Verified by this server at", verifiedAt);
        boolean datedNow = false;
        for (java.time.Instant t = before; !t.isAfter(after); t = t.plusSeconds(1)) {
            datedNow |= now.contains("Date of the report") && now.contains(t.toString());
        }
        assertThat(datedNow).as("dated between %s and %s: %s", before, after, now).isTrue();
        assertThat(before.toString()).isNotEqualTo(verifiedAt);

        String given = pdfText(id, "?date=2030-01-02T03:04:05Z");
        assertThat(given).contains("2030-01-02T03:04:05Z", verifiedAt);
        HttpResponse<byte[]> a = pdf(id, "?date=2030-01-02T03:04:05Z");
        HttpResponse<byte[]> b = pdf(id, "?date=2030-01-02T03:04:05Z");
        assertThat(a.body()).as("the same date gives the same bytes").isEqualTo(b.body());
        assertProblem(srv().get("/api/v1/reports/" + id + "/pdf?date=yesterday", Optional.empty()), 400, "bad-request");
    }

    private HttpResponse<byte[]> pdf(String id, String query) throws Exception {
        return srv().http.send(java.net.http.HttpRequest.newBuilder(srv().uri("/api/v1/reports/" + id + "/pdf" + query)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private String pdfText(String id, String query) throws Exception {
        HttpResponse<byte[]> pdf = pdf(id, query);
        assertThat(pdf.statusCode()).isEqualTo(200);
        Path file = Files.write(tmp().resolve("dated-" + id + "-" + System.nanoTime() + ".pdf"), pdf.body());
        org.proofmode.testkit.ProcessResult text = org.proofmode.testkit.ExternalTool.run(java.util.List.of(
                org.proofmode.testkit.ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", file.toString(), "-"), java.util.Map.of(),
                java.time.Duration.ofSeconds(60));
        assertThat(text.succeeded()).as(text.describe()).isTrue();
        return text.stdout();
    }

    @Test
    default void verify_keepsNothing_withoutKeep() throws Exception {
        long before = srv().count("reports");
        HttpResponse<String> r = srv().postZip("/api/v1/verify", TestBundles.read(TestBundles.good(tmp().resolve("good-bundle"))), Optional.empty());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).has("permalink")).isFalse();
        HttpResponse<String> no = srv().postZip("/api/v1/verify?keep=false", TestBundles.read(TestBundles.good(tmp().resolve("good-bundle"))), Optional.empty());
        assertThat(json(no).has("permalink")).isFalse();
        assertThat(srv().count("reports")).isEqualTo(before);
        assertProblem(srv().postZip("/api/v1/verify?keep=maybe", TestBundles.read(TestBundles.good(tmp().resolve("good-bundle"))), Optional.empty()), 400,
                "bad-request");
    }

    @Test
    default void reports_answersNotFound_unknownOrMalformedId() throws Exception {
        assertProblem(srv().get("/api/v1/reports/AAAAAAAAAAAAAAAAAAAAAA", Optional.empty()), 404, "not-found");
        assertProblem(srv().get("/api/v1/reports/not-an-id", Optional.empty()), 404, "not-found");
        assertProblem(srv().get("/api/v1/reports/" + "A".repeat(300), Optional.empty()), 404, "not-found");
    }

    @Test
    default void reports_areGone_afterRetention() throws Exception {
        ServerConfig config = ServerConfig.defaults(tmp().resolve("short-retention")).withListen("127.0.0.1", 0)
                .withJdbcUrl(Optional.of(freshJdbcUrl(Files.createDirectories(tmp().resolve("short-db")))))
                .withReports(new ReportPolicy(java.time.Duration.ofMillis(1500), 20, 1 << 20));
        try (TestServer s = TestServer.start(config)) {
            String id = json(s.postZip("/api/v1/verify?keep=true", TestBundles.read(TestBundles.good(tmp().resolve("good-bundle"))), Optional.empty()))
                    .get("reportId").asText();
            assertThat(s.get("/api/v1/reports/" + id, Optional.empty()).statusCode()).isEqualTo(200);
            Thread.sleep(1600);
            assertProblem(s.get("/api/v1/reports/" + id, Optional.empty()), 404, "not-found");
            assertThat(s.count("reports")).as("expired reports are deleted").isZero();
        }
    }
}
