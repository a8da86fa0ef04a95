// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.media.Digests;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Samples;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Trust;

/**
 * The API, against a real server on loopback; run on every database engine by its subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiContract implements ReportContract, CustodyContract, TokenScopeContract, CollectionContract {
    Path tmp;

    TestServer srv;
    String token;
    ProofMode signer;

    /** The JDBC URL of a fresh database, or empty for SQLite in the home. */
    abstract Optional<String> jdbcUrl() throws Exception;

    @Override
    public TestServer srv() {
        return srv;
    }

    @Override
    public String token() {
        return token;
    }

    @Override
    public Path tmp() {
        return tmp;
    }

    @Override
    public ProofMode signer() {
        return signer;
    }

    @BeforeAll
    void startServer(@TempDir Path dir) throws Exception {
        tmp = dir;
        srv = TestServer.start(tmp.resolve("server-home"), jdbcUrl());
        token = srv.token("desk-test");
        signer = TestBundles.signer(tmp.resolve("signer"));
    }

    @AfterAll
    void stopServer() {
        if (srv != null) {
            srv.close();
        }
    }

    @Test
    void verify_returnsTheReportOfVerifyJson_appGoodZip() throws Exception {
        HttpResponse<String> r = srv.postZip("/api/v1/verify?name=good.zip", TestBundles.read(Samples.appGoodZip()), Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        ObjectNode got = (ObjectNode) json(r);
        assertThat(got.remove("bundleSha256").asText()).isEqualTo(Digests.sha256(Samples.appGoodZip()));
        ObjectNode expected = ReportJson.toNode(ProofMode.at(srv.config.home()).verifier(Trust.HOME).verify(Samples.appGoodZip(), Optional.empty()));
        expected.put("source", "good.zip");
        assertThat(got).isEqualTo(expected);
        assertThat(got.get("verdict").asText()).isEqualTo("VALID");
        assertThat(got.at("/proofs/0/signer/fingerprint").asText()).isEqualTo(Samples.APP_GOOD_SIGNER);
    }

    @Test
    void verify_reportsInvalid_appBadZip() throws Exception {
        HttpResponse<String> r = srv.postZip("/api/v1/verify", TestBundles.read(Samples.appBadZip()), Optional.empty());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).get("verdict").asText()).isEqualTo("INVALID");
        assertThat(r.body()).contains("signature.proofJson.invalid");
    }

    @Test
    void verify_readsLooseFiles_multipartForm() throws Exception {
        Map<String, byte[]> files = TestBundles.entries(TestBundles.good(tmp.resolve("loose")));
        HttpResponse<String> r = srv.postFiles("/api/v1/verify", files, Optional.empty());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("verdict").asText()).isEqualTo("VALID");
        assertThat(json(r).get("source").asText()).isEqualTo(files.size() + " files");
    }

    /**
     * A desk that has a proof and a copy of its photo: the copy saved as BMP has the same pixels (the same
     * content), another picture does not; the answer names the items as sent and needs a token.
     */
    @Test
    void compare_saysHowTwoItemsRelate_bundleAndCopies() throws Exception {
        Path bundle = TestBundles.withImageHashes(signer, tmp.resolve("compare"), 977);
        BufferedImage photo = ImageIO.read(new ByteArrayInputStream(TestBundles.entries(bundle).get("photo-977.png")));
        ByteArrayOutputStream bmp = new ByteArrayOutputStream();
        assertThat(ImageIO.write(photo, "bmp", bmp)).isTrue();
        BufferedImage other = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        other.setRGB(3, 3, 0x00FF00);
        ByteArrayOutputStream otherPng = new ByteArrayOutputStream();
        assertThat(ImageIO.write(other, "png", otherPng)).isTrue();

        HttpResponse<String> same = srv.postParts("/api/v1/compare", Map.of("a", Map.entry("proof.zip", TestBundles.read(bundle)),
                "b", Map.entry("copy.bmp", bmp.toByteArray())), Optional.of(token));
        assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
        JsonNode s = json(same);
        assertThat(s.get("relation").asText()).as(same.body()).isEqualTo("SAME_CONTENT");
        assertThat(s.at("/sides/0/name").asText()).isEqualTo("proof.zip");
        assertThat(s.at("/sides/0/kind").asText()).isEqualTo("proof");
        assertThat(s.at("/sides/0/verdict").asText()).isIn("VALID", "TRUSTED");
        assertThat(s.at("/sides/1/kind").asText()).isEqualTo("media");
        assertThat(s.toString()).contains("compare.pixels.identical").doesNotContain("upload-").doesNotContain(srv.config.home().toString());

        HttpResponse<String> different = srv.postParts("/api/v1/compare", Map.of("a", Map.entry("proof.zip", TestBundles.read(bundle)),
                "b", Map.entry("other.png", otherPng.toByteArray())), Optional.of(token));
        assertThat(different.statusCode()).as(different.body()).isEqualTo(200);
        assertThat(json(different).get("relation").asText()).isIn("SIMILAR", "DIFFERENT");

        assertProblem(srv.postParts("/api/v1/compare", Map.of("a", Map.entry("proof.zip", TestBundles.read(bundle)),
                "b", Map.entry("copy.bmp", bmp.toByteArray())), Optional.empty()), 401, "unauthorized");
        assertProblem(srv.postParts("/api/v1/compare", Map.of("a", Map.entry("proof.zip", TestBundles.read(bundle))),
                Optional.of(token)), 400, "bad-request");
    }

    @Test
    void verify_answersProblem_notAZip() throws Exception {
        JsonNode p = assertProblem(srv.postZip("/api/v1/verify", "not a zip".getBytes(), Optional.empty()), 422, "bad-bundle");
        assertThat(p.get("detail").asText()).doesNotContain(srv.config.blobDir().toString()).contains("upload.zip");
    }

    @Test
    void evidence_keepsOneCopy_sameBytesTwice() throws Exception {
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve("twice")), 1, 48.85, 2.35);
        byte[] bytes = TestBundles.read(zip);
        HttpResponse<String> first = srv.postZip("/api/v1/evidence?name=twice.zip", bytes, Optional.of(token));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        String sha = Digests.sha256(zip);
        assertThat(json(first).get("sha256").asText()).isEqualTo(sha);
        assertThat(first.headers().firstValue("Location")).hasValue("/api/v1/evidence/" + sha);
        HttpResponse<String> again = srv.postZip("/api/v1/evidence?name=twice.zip", bytes, Optional.of(token));
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("created").asBoolean()).isFalse();

        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(item.get("verdict").asText()).isEqualTo("VALID");
        assertThat(item.at("/report/verdict").asText()).isEqualTo("VALID");
        assertThat(item.at("/custody/0/action").asText()).isEqualTo("INTAKE");
        assertThat(item.at("/custody/0/actor").asText()).startsWith("desk-test");
        assertThat(item.at("/custody/0/remote").asText()).isEqualTo("127.0.0.1");
        assertThat(item.at("/custody/1/action").asText()).isEqualTo("RESUBMIT");
        assertThat(item.at("/proofs/0/latitude").asDouble()).isEqualTo(48.85);

        HttpResponse<byte[]> blob = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/bundle"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(blob.body()).isEqualTo(bytes);
        JsonNode after = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(after.at("/custody/2/action").asText()).isEqualTo("DOWNLOAD");
    }

    @Test
    void report_isAPdfOfTheStoredBundle_withItsCustody_loggedAsReport() throws Exception {
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve("report")), 3, 48.85, 2.35);
        HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=report.zip", TestBundles.read(zip), Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String sha = json(put).get("sha256").asText();
        HttpRequest.Builder get = HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/report"));
        assertThat(srv.http.send(get.build(), HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(401);
        HttpResponse<byte[]> pdf = srv.http.send(get.header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(pdf.statusCode()).isEqualTo(200);
        assertThat(pdf.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/pdf"));
        Path file = Files.write(tmp.resolve(sha + ".report.pdf"), pdf.body());
        ProcessResult text = ExternalTool.run(List.of(ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", file.toString(), "-"),
                Map.of(), Duration.ofSeconds(60));
        assertThat(text.succeeded()).as(text.describe()).isTrue();

        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        JsonNode custody = item.get("custody");
        JsonNode last = custody.get(custody.size() - 1);
        assertThat(last.get("action").asText()).isEqualTo("REPORT");
        assertThat(last.get("verdict").asText()).isEqualTo("VALID");
        assertThat(text.stdout()).contains("Verdict: VALID", "Chain of custody on the evidence server", "INTAKE by desk-test",
                "REPORT by desk-test", last.get("hash").asText(), "Map of the recorded place", "Check it yourself");
        for (JsonNode p : item.at("/report/proofs")) {
            p.get("checks").forEach(c -> assertThat(text.stdout()).contains(c.get("code").asText()));
        }
    }

    @Test
    void report_ofNamesAndNotesInChineseJapaneseArabicAndEmoji_isMade_andLoggedOnceAfterItIsMade() throws Exception {
        String notes = "شاهدت الحريق من الجسر، ひらがな 🔥";
        Path zip = TestBundles.named(signer, Files.createDirectories(tmp.resolve("non-latin")), 41, "写真 📷.png", notes);
        String name = java.net.URLEncoder.encode("写真 الحريق 📷.zip", java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=" + name, TestBundles.read(zip), Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String sha = json(put).get("sha256").asText();
        int before = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody").size();
        HttpResponse<byte[]> pdf = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/report"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(pdf.statusCode()).as(new String(pdf.body(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(200);
        Path file = Files.write(tmp.resolve(sha + "-non-latin.pdf"), pdf.body());
        ProcessResult text = ExternalTool.run(List.of(ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", file.toString(), "-"),
                Map.of(), Duration.ofSeconds(60));
        assertThat(text.succeeded()).as(text.describe()).isTrue();
        // Arabic is drawn shaped: its presentation forms read as their letters (NFKC), as a reader's search does
        assertThat(java.text.Normalizer.normalize(text.stdout(), java.text.Normalizer.Form.NFKC))
                .contains("写真 📷.png", "ひらがな", "🔥", "الحريق", "REPORT by desk-test");
        JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
        assertThat(custody.size()).isEqualTo(before + 1);
        assertThat(custody.get(custody.size() - 1).get("action").asText()).isEqualTo("REPORT");
    }

    @Test
    void reverify_addsCustodyLine_storedBundle() throws Exception {
        HttpResponse<String> put = srv.postFiles("/api/v1/evidence", Map.of("bad.zip", TestBundles.alteredPhoto(tmp.resolve("altered"))), Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String sha = json(put).get("sha256").asText();
        assertThat(json(put).get("verdict").asText()).isEqualTo("INVALID");
        HttpResponse<String> again = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/reverify"))
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("verdict").asText()).isEqualTo("INVALID");
        JsonNode custody = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token))).get("custody");
        JsonNode last = custody.get(custody.size() - 1);
        assertThat(last.get("action").asText()).isEqualTo("REVERIFY");
        assertThat(last.get("verdict").asText()).isEqualTo("INVALID");
    }

    @Test
    void search_findsBySignerTimeAndPlace() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("search"));
        String paris = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.located(signer, dir, 10, 48.8566, 2.3522)),
                Optional.of(token))).get("sha256").asText();
        String lagos = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.located(signer, dir, 11, 6.5244, 3.3792)),
                Optional.of(token))).get("sha256").asText();
        String fp = signer.keys().info().fingerprint();

        JsonNode bySigner = json(srv.get("/api/v1/evidence?signer=" + fp, Optional.of(token))).get("results");
        assertThat(bySigner.findValuesAsText("evidence")).contains(paris, lagos);
        JsonNode inFrance = json(srv.get("/api/v1/evidence?bbox=41,-5,51,10&signer=" + fp, Optional.of(token))).get("results");
        assertThat(inFrance.findValuesAsText("evidence")).contains(paris).doesNotContain(lagos);
        JsonNode today = json(srv.get("/api/v1/evidence?from=2000-01-01&to=2999-01-01&signer=" + fp, Optional.of(token))).get("results");
        assertThat(today.findValuesAsText("evidence")).contains(paris, lagos);
        JsonNode past = json(srv.get("/api/v1/evidence?to=2001-01-01&signer=" + fp, Optional.of(token))).get("results");
        assertThat(past).isEmpty();
        assertProblem(srv.get("/api/v1/evidence?bbox=1,2,3", Optional.of(token)), 400, "bad-request");

        // Pages of one: each names where the next starts; together they are the whole result, in order.
        JsonNode first = json(srv.get("/api/v1/evidence?limit=1&signer=" + fp, Optional.of(token)));
        JsonNode second = json(srv.get("/api/v1/evidence?limit=1&signer=" + fp + "&after=" + first.get("next").asText(), Optional.of(token)));
        JsonNode third = json(srv.get("/api/v1/evidence?limit=1&signer=" + fp + "&after=" + second.get("next").asText(), Optional.of(token)));
        List<String> paged = new java.util.ArrayList<>(first.get("results").findValuesAsText("evidence"));
        paged.addAll(second.get("results").findValuesAsText("evidence"));
        paged.addAll(third.get("results").findValuesAsText("evidence"));
        assertThat(bySigner.size()).isGreaterThanOrEqualTo(3);
        assertThat(paged).containsExactlyElementsOf(bySigner.findValuesAsText("evidence").subList(0, 3));
        JsonNode all = json(srv.get("/api/v1/evidence?limit=" + bySigner.size() + "&signer=" + fp, Optional.of(token)));
        assertThat(json(srv.get("/api/v1/evidence?limit=" + bySigner.size() + "&signer=" + fp + "&after=" + all.get("next").asText(),
                Optional.of(token))).get("results")).isEmpty();
        assertProblem(srv.get("/api/v1/evidence?after=not-a-cursor", Optional.of(token)), 400, "bad-request");
    }

    @Test
    void notarization_isMatched_whenMediaArrivesLater() throws Exception {
        Path zip = TestBundles.located(signer, Files.createDirectories(tmp.resolve("sms")), 20, 1, 2);
        String media = TestBundles.entries(zip).keySet().stream().filter(n -> n.endsWith(".proof.json")).findFirst()
                .orElseThrow().substring(0, 64);
        String text = org.proofmode.prove.Notarization.text(media, signer.keys().info().fingerprint(), java.time.Instant.now());
        HttpResponse<String> sent = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/notarizations"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(text)));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
        assertThat(json(sent).get("evidence")).isEmpty();

        String sha = json(srv.postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(token))).get("sha256").asText();

        String q = java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
        JsonNode found = json(srv.get("/api/v1/notarizations?q=" + q, Optional.of(token)));
        assertThat(found.get("mediaSha256").asText()).isEqualTo(media);
        assertThat(found.get("evidence").findValuesAsText("evidence")).containsExactly(sha);
        assertThat(found.at("/notarizations/0/text").asText()).isEqualTo(text);
        JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
        assertThat(item.get("custody").findValuesAsText("action")).contains("NOTARIZATION_MATCH");
        assertThat(item.at("/notarizations/0/text").asText()).isEqualTo(text);
    }

    @Test
    void evidence_answersNotFound_unknownHash() throws Exception {
        assertProblem(srv.get("/api/v1/evidence/" + "0".repeat(64), Optional.of(token)), 404, "not-found");
        assertProblem(srv.get("/api/v1/evidence/not-a-hash", Optional.of(token)), 400, "bad-request");
    }
}
