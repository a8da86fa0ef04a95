// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.server.http.PageLanguage;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The server's PDF reports ({@code /api/v1/reports/{id}/pdf}, {@code /api/v1/evidence/{sha256}/report}) in the
 * reader's language: {@code lang}, else {@code Accept-Language} as the page reads it, else English; hashes unchanged.
 */
class ReportLanguageApiTest {
    @TempDir
    static Path tmp;

    private static TestServer srv;
    private static String token;
    private static String keptId;
    private static String keptSha;
    private static String itemSha;
    private static String itemMediaSha;

    @BeforeAll
    static void start() throws Exception {
        srv = TestServer.start(ServerConfig.defaults(tmp.resolve("server-home")).withListen("127.0.0.1", 0));
        token = srv.token("desk-test");
        HttpResponse<String> kept = srv.postZip("/api/v1/verify?keep=true&name=good.zip", TestBundles.read(TestBundles.good(tmp.resolve("kept"))),
                Optional.empty());
        assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
        keptId = json(kept).get("reportId").asText();
        keptSha = json(kept).at("/proofs/0/sha256").asText();
        HttpResponse<String> put = srv.postZip("/api/v1/evidence?name=good.zip", TestBundles.read(TestBundles.good(tmp.resolve("stored"))),
                Optional.of(token));
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        itemSha = json(put).get("sha256").asText();
        JsonNode item = json(srv.get("/api/v1/evidence/" + itemSha, Optional.of(token)));
        itemMediaSha = item.at("/report/proofs/0/sha256").asText();
    }

    @AfterAll
    static void stop() {
        srv.close();
    }

    @Test
    void reportsPdf_isArabic_withLangAr_theServersRowTranslated_hashUnchanged() throws Exception {
        HttpResponse<byte[]> pdf = kept("?lang=ar", Optional.empty());
        assertThat(pdf.headers().firstValue("Content-Language")).hasValue("ar");
        Texts ar = Texts.of(Language.AR);
        assertThat(text(pdf)).contains(words(ar.get("report.server.verifiedAt")), words(ar.get("report.verdict")), keptSha)
                .doesNotContain("Verified by this server at", "Date of the report");
    }

    @Test
    void reportsPdf_isUkrainian_byAcceptLanguage_andLangWinsOverIt() throws Exception {
        String uk = text(kept("", Optional.of("de-DE, uk;q=0.9, en;q=0.5")));
        Texts x = Texts.of(Language.UK);
        assertThat(uk).contains(x.get("report.server.verifiedAt"), x.get("report.said", x.get("report.verdict"), "VALID"), keptSha)
                .doesNotContain("Verified by this server at");
        assertThat(text(kept("?lang=fr", Optional.of("uk")))).contains(Texts.of(Language.FR).get("report.server.verifiedAt"), keptSha);
    }

    @Test
    void reportsPdf_isEnglish_forAnUnknownLanguage_orNone() throws Exception {
        for (String query : List.of("", "?lang=xx", "?lang=zh-TW", "?lang=%3Cscript%3E")) {
            HttpResponse<byte[]> pdf = kept(query, Optional.empty());
            assertThat(pdf.headers().firstValue("Content-Language")).as(query).hasValue("en");
            assertThat(text(pdf)).as(query).contains("Verdict: VALID", "Verified by this server at", keptSha);
        }
    }

    @Test
    void reportsPdf_readsOnlyTheBoundedHeadOfAHostileAcceptLanguage_tenTimesTheLimit_fromManyClientsAtOnce() throws Exception {
        // ten times the characters read, every range but the last malformed or refused, then a language of ours
        String hostile = "x-".repeat(PageLanguage.MAX_ACCEPT_LANGUAGE * 5) + ", ar;q=0, *;q=1, " + "a b;q=2, ".repeat(5) + "ar";
        String longLang = "ar" + "-x".repeat(PageLanguage.MAX_PARAMETER * 5);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<HttpResponse<byte[]>>> answers = List.of(pool.submit(() -> kept("", Optional.of(hostile))),
                    pool.submit(() -> kept("?lang=" + longLang, Optional.empty())), pool.submit(() -> kept("", Optional.of(hostile))),
                    pool.submit(() -> kept("?lang=" + longLang, Optional.of("fr"))));
            for (int i = 0; i < answers.size(); i++) {
                HttpResponse<byte[]> pdf = answers.get(i).get();
                assertThat(pdf.statusCode()).isEqualTo(200);
                assertThat(pdf.headers().firstValue("Content-Language")).as("answer %d", i).hasValue(i == 3 ? "fr" : "en");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(text(kept("", Optional.of(hostile)))).contains("Verdict: VALID", keptSha);
    }

    @Test
    void evidenceReport_isInTheReadersLanguage_byAcceptLanguage_orLang_englishOtherwise() throws Exception {
        HttpResponse<byte[]> uk = item("", Optional.of("uk"));
        assertThat(uk.headers().firstValue("Content-Language")).hasValue("uk");
        assertThat(text(uk)).contains(Texts.of(Language.UK).get("report.said", Texts.of(Language.UK).get("report.verdict"), "VALID"),
                itemMediaSha).doesNotContain("Verdict: VALID");
        Texts ar = Texts.of(Language.AR);
        assertThat(text(item("?lang=ar", Optional.of("uk")))).contains(words(ar.get("report.verdict")), itemMediaSha);
        assertThat(text(item("?lang=xx", Optional.empty()))).contains("Verdict: VALID", itemMediaSha);
    }

    private static HttpResponse<byte[]> kept(String query, Optional<String> acceptLanguage) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(srv.uri("/api/v1/reports/" + keptId + "/pdf" + query));
        acceptLanguage.ifPresent(a -> b.header("Accept-Language", a));
        return srv.http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<byte[]> item(String query, Optional<String> acceptLanguage) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + itemSha + "/report" + query))
                .header("Authorization", "Bearer " + token);
        acceptLanguage.ifPresent(a -> b.header("Accept-Language", a));
        return srv.http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The PDF's text as pdftotext reads it: Arabic presentation forms as their letters, bidi controls left out, spaces joined. */
    private static String text(HttpResponse<byte[]> pdf) throws Exception {
        assertThat(pdf.statusCode()).isEqualTo(200);
        Path file = Files.write(Files.createTempFile(tmp, "report", ".pdf"), pdf.body());
        ProcessResult text = ExternalTool.run(List.of(ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", file.toString(), "-"),
                Map.of(), Duration.ofSeconds(60));
        assertThat(text.succeeded()).as(text.describe()).isTrue();
        return words(text.stdout());
    }

    private static String words(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFKC).replaceAll("[\u200E\u200F\u202A-\u202E\u2066-\u2069]", "").replaceAll("\\s+", " ");
    }
}
