// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.server.http.PageLanguage;

/**
 * The web page in the reader's language over HTTP: {@code Accept-Language}, the {@code ?lang=} switch, the
 * headers that tell caches the answer varies, {@code <html lang dir>}, and the texts handed to the scripts.
 */
class PageLanguagesTest {
    private static final Pattern SCRIPT_TEXTS = Pattern.compile("<script id=\"texts\" type=\"application/json\">(.*?)</script>",
            Pattern.DOTALL);

    @TempDir
    Path home;

    private static HttpResponse<String> page(TestServer srv, String path, String acceptLanguage) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(srv.uri(path)).GET();
        if (acceptLanguage != null) {
            b.header("Accept-Language", acceptLanguage);
        }
        return srv.send(b);
    }

    @Test
    void page_inTheReadersLanguage_withVaryAndContentLanguage() throws Exception {
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            HttpResponse<String> ar = page(srv, "/", "ar-SY,ar;q=0.9,en;q=0.5");
            assertThat(ar.statusCode()).isEqualTo(200);
            assertThat(ar.body()).contains("<html lang=\"ar\" dir=\"rtl\">", "<title>" + Texts.of(Language.AR).get("page.title") + "</title>")
                    .doesNotContain("{{", "[[", "Choose or drop files");
            assertThat(ar.headers().firstValue("Content-Language")).hasValue("ar");
            assertThat(ar.headers().allValues("Vary").toString()).contains("Accept-Language");
            assertThat(ar.headers().firstValue("Cache-Control")).hasValue("no-cache");
            assertThat(ar.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html").contains("utf-8"));
            assertThat(ar.headers().firstValue("Content-Security-Policy")).as("as strict as every answer's").hasValue(ProofServer.CSP);

            HttpResponse<String> zh = page(srv, "/", "zh-CN,zh;q=0.9");
            assertThat(zh.body()).contains("<html lang=\"zh-Hans\" dir=\"ltr\">", Texts.of(Language.ZH_HANS).get("page.drop.title"));
            assertThat(zh.headers().firstValue("Content-Language")).hasValue("zh-Hans");
            assertThat(page(srv, "/", "es-CO").body()).contains("<html lang=\"es\" dir=\"ltr\">", "Elija o suelte archivos");
            assertThat(page(srv, "/", "zh-TW").body()).as("traditional Chinese is not ours").contains("<html lang=\"en\" dir=\"ltr\">");

            HttpResponse<String> head = srv.send(HttpRequest.newBuilder(srv.uri("/")).method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .header("Accept-Language", "uk"));
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.headers().firstValue("Content-Language")).hasValue("uk");
            assertThat(page(srv, "/index.html", "fr").body()).as("the page's old address").contains("<html lang=\"fr\" dir=\"ltr\">");

            HttpResponse<String> en = page(srv, "/", null);
            assertThat(en.body()).contains("<html lang=\"en\" dir=\"ltr\">", "<title>ProofMode — check a proof</title>",
                    "Choose or drop files");
            assertThat(en.headers().firstValue("Content-Language")).hasValue("en");
            assertThat(en.headers().allValues("Vary").toString()).contains("Accept-Language");
        }
    }

    @Test
    void page_langParameterWins_switchKeepsTheRestOfTheAddress() throws Exception {
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            HttpResponse<String> fr = page(srv, "/?view=compact&lang=fr", "es");
            assertThat(fr.body()).contains("<html lang=\"fr\" dir=\"ltr\">");
            assertThat(fr.headers().firstValue("Content-Language")).hasValue("fr");
            for (Language l : Language.values()) {
                assertThat(fr.body()).contains("href=\"?view=compact&amp;lang=" + l.tag() + "\" hreflang=\"" + l.tag() + "\" lang=\""
                        + l.tag() + "\" dir=\"" + (l.rightToLeft() ? "rtl" : "ltr") + "\"");
                assertThat(fr.body()).contains(">" + Texts.of(l).get("page.lang.name") + "</a>");
            }
            assertThat(fr.body()).contains("lang=\"fr\" dir=\"ltr\" aria-current=\"true\">Français</a>");
            assertThat(fr.body().split("aria-current", -1)).hasSize(2);
            // An unknown language asked for is ignored: the reader's own decides, else English.
            assertThat(page(srv, "/?lang=pt", "uk").body()).contains("<html lang=\"uk\" dir=\"ltr\">");
            assertThat(page(srv, "/?lang=xx", null).body()).contains("<html lang=\"en\" dir=\"ltr\">");
            assertThat(page(srv, "/?lang=zh-Hant", null).body()).contains("<html lang=\"en\" dir=\"ltr\">");
            assertThat(page(srv, "/?lang=ar", null).body()).contains("<html lang=\"ar\" dir=\"rtl\">");
        }
    }

    @Test
    void page_strangersQueryStaysEscaped_inTheSwitchLinks() throws Exception {
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            String hostile = "/?x=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&y=%3C/script%3E&lang=es";
            HttpResponse<String> r = page(srv, hostile, null);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).doesNotContain("<img", "onerror=alert", "</script>\"")
                    .contains("href=\"?x=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&amp;y=%3C/script%3E&amp;lang=ar\"");
            String badlyEncoded = RawClient.exchange(RawClient.loopback(1), srv.server.port(), "GET /?%zz=1&lang=uk HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n", 10_000);
            assertThat(badlyEncoded).as("a parameter not well encoded is no server error").startsWith("HTTP/1.1 200").contains("lang=\"uk\"");
            // A raw quote and markup in the query (not a valid URL, sent as bytes) cannot leave the attribute either.
            String answer = RawClient.exchange(RawClient.loopback(1), srv.server.port(), "GET /?q=\"><b>x</b>&lang=fr HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n", 10_000);
            assertThat(answer).doesNotContain("\"><b>x</b>");
        }
    }

    @Test
    void page_scriptTexts_areTheLanguagesAndCannotEndTheirScript() throws Exception {
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            for (Language l : Language.values()) {
                String body = page(srv, "/?lang=" + l.tag(), null).body();
                Matcher m = SCRIPT_TEXTS.matcher(body);
                assertThat(m.find()).as(l.tag()).isTrue();
                assertThat(m.group(1)).doesNotContain("<", ">");
                JsonNode texts = TestServer.JSON.readTree(m.group(1));
                Texts own = Texts.of(l);
                assertThat(texts.get("page.js.verdict.VALID").asText()).isEqualTo(own.get("page.js.verdict.VALID"));
                assertThat(texts.get("page.js.resultFor").asText()).isEqualTo(own.get("page.js.resultFor", "{0}"));
                // MessageFormat's doubled quote is undone for the script: it fills {0}, {1} itself.
                assertThat(texts.get("page.js.log.logged").asText()).contains("{0}", "{1}", "{2}", "{3}").doesNotContain("''");
                java.util.Map<String, String> fields = org.proofmode.report.PlainNames.all(own);
                assertThat(texts.size()).isEqualTo(Texts.of(Language.EN).keys().stream().filter(k -> k.startsWith("page.js.")).count() + fields.size());
                fields.forEach((field, name) -> assertThat(texts.get("field:" + field).asText()).as("%s %s", l.tag(), field).isEqualTo(name));
            }
        }
    }

    @Test
    void pageTexts_noControlOrBidiCharacters_whereScriptsShowThem() {
        // The page's scripts show a control or bidirectional character as an escape (shown() in app.js, as SafeText
        // does), file names are isolated by the page (placeholders), not by marks in a sentence, and the private-use
        // characters mark placeholders while the server escapes a sentence.
        Pattern forbidden = Pattern.compile("[\\p{Cc}\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029\\ue000\\ue001\\\\]");
        for (Language l : Language.values()) {
            Texts texts = Texts.of(l);
            for (String key : texts.keys()) {
                if (key.startsWith("page.")) {
                    String text = texts.pattern(key).orElseThrow();
                    assertThat(forbidden.matcher(text).find()).as("%s in %s: %s", key, l.tag(), text).isFalse();
                }
            }
        }
    }

    @Test
    void page_hostileAcceptLanguage_tenTimesTheBound_sequentialAndConcurrent() throws Exception {
        int bound = PageLanguage.MAX_ACCEPT_LANGUAGE;
        String hostile = "ar," + "x-aaaaaaaa;q=0.5,".repeat(10 * bound / 17 + 1);
        assertThat(hostile.length()).isGreaterThan(10 * bound);
        String junk = "q".repeat(10 * bound);
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> r = page(srv, "/", i % 2 == 0 ? hostile : junk);
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("Content-Language")).hasValue(i % 2 == 0 ? "ar" : "en");
            }
            ExecutorService pool = Executors.newFixedThreadPool(10);
            try {
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    String header = i % 2 == 0 ? hostile : junk;
                    answers.add(pool.submit(() -> page(srv, "/", header)));
                }
                for (int i = 0; i < answers.size(); i++) {
                    HttpResponse<String> r = answers.get(i).get();
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.headers().firstValue("Content-Language")).hasValue(i % 2 == 0 ? "ar" : "en");
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(page(srv, "/api/v1/health", null).statusCode()).as("the server still answers").isEqualTo(200);
        }
    }
}
