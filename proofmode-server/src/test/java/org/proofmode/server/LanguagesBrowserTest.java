// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.report.ReportMeanings;
import org.proofmode.testkit.BrowserScript;
import org.proofmode.testkit.ProcessResult;

/**
 * A kept result's page in each of the six languages, in Debian's headless Chromium
 * ({@code src/test/browser/languages.mjs}), on a desktop (1280×800, the language from the browser's Accept-Language)
 * and a phone (390×844, the language from the page's {@code ?lang=} switch): {@code <html lang dir>}, Arabic laid
 * out right to left with hashes still left to right, the verdict in the phone's first screen, no key name or English
 * sentence left in another language's page, each check's meaning in the language above the API's English message, the
 * report link asking for the page's language, and the switch keeping the result in its links. Screenshots go to
 * {@code target/browser/lang-TAG-SCREEN.png}.
 */
class LanguagesBrowserTest {
    /** Sentences of the page itself (not of the checks' messages, which the API gives in English). */
    private static final List<String> ENGLISH_KEYS = List.of("page.drop.title", "page.keepLink", "page.compare.title", "page.footer",
            "page.js.verdict.VALID", "page.js.verdict.VALID.said", "page.js.metadata.caption", "page.js.times.caption",
            "page.js.key.untrusted", "page.js.permalink.hint", "page.js.status.PASS");

    private static final String HOSTILE_NAME = "<img src=x onerror=alert(1)><b>x\u202egpj.zip";

    @TempDir
    Path home;

    @Test
    void resultPage_readsInEveryLanguage_desktopAndPhone() throws Exception {
        Path out = Files.createDirectories(Path.of("target", "browser").toAbsolutePath());
        try (TestServer srv = TestServer.start(home.resolve("srv"), Optional.empty())) {
            Path bundle = TestBundles.located(TestBundles.signer(home.resolve("signer")), home, 7, 52.52, 13.405, Optional.of(5000.0));
            // The name a stranger gave the upload (as much of it as the server keeps) goes into every language's heading as
            // text, with a bidirectional override shown as an escape, as the command line shows it.
            JsonNode kept = TestServer.json(srv.postZip("/api/v1/verify?keep=true&name=" + java.net.URLEncoder.encode(HOSTILE_NAME,
                    java.nio.charset.StandardCharsets.UTF_8), TestBundles.read(bundle), Optional.empty()));
            String id = kept.get("reportId").asText();
            String shownName = org.proofmode.util.SafeText.escape(kept.get("source").asText());
            assertThat(shownName).contains("\\u202e");
            String base = "http://127.0.0.1:" + srv.server.port();
            ProcessResult r = BrowserScript.run(Path.of("src/test/browser").toAbsolutePath(), "languages.mjs",
                    List.of(base, id, out.toString()), Map.of(), Duration.ofSeconds(180));
            assertThat(r.exitCode()).as(r.describe()).isZero();
            JsonNode result = TestServer.JSON.readTree(BrowserScript.lastLine(r));
            assertThat(result.get("consoleErrors")).as("no script or CSP errors").isEmpty();
            for (Language l : Language.values()) {
                Texts texts = Texts.of(l);
                JsonNode start = result.get("pages").get(l.tag() + "-start");
                assertThat(start.get("scrollWidth").asInt()).as("the empty page on a phone: " + l.tag()).isLessThanOrEqualTo(start.get("innerWidth").asInt());
                assertThat(start.get("switchTop").asDouble()).as("the language links in the first screen: " + l.tag()).isBetween(0.0, 100.0);
                assertThat(out.resolve("lang-" + l.tag() + "-phone-start.png")).isNotEmptyFile();
                for (String screen : List.of("desktop", "phone")) {
                    JsonNode p = result.get("pages").get(l.tag() + "-" + screen);
                    String seen = l.tag() + " " + screen;
                    assertThat(p.get("lang").asText()).as(seen).isEqualTo(l.tag());
                    assertThat(p.get("dir").asText()).as(seen).isEqualTo(l.rightToLeft() ? "rtl" : "ltr");
                    assertThat(p.get("direction").asText()).as(seen).isEqualTo(l.rightToLeft() ? "rtl" : "ltr");
                    assertThat(p.get("title").asText()).as(seen).isEqualTo(texts.get("page.title"));
                    assertThat(p.get("verdict").asText()).as(seen).isEqualTo("VALID");
                    assertThat(p.get("words").asText()).as(seen).isEqualTo(texts.get("page.js.verdict.VALID"));
                    assertThat(p.get("heading").asText()).as(seen).isEqualTo(texts.get("page.js.resultFor", shownName));
                    assertThat(p.get("injected").asInt()).as("markup in a stranger's name stays text: " + seen).isZero();
                    assertThat(p.get("verdictTop").asDouble()).as("the verdict in the first screen: " + seen).isGreaterThanOrEqualTo(0);
                    assertThat(p.get("verdictBottom").asDouble()).as("the verdict in the first screen: " + seen)
                            .isLessThanOrEqualTo(p.get("innerHeight").asDouble());
                    assertThat(p.get("scrollWidth").asInt()).as("no sideways scrolling: " + seen).isLessThanOrEqualTo(p.get("innerWidth").asInt());
                    String text = p.get("text").asText();
                    assertThat(text).as("no key name on the page: " + seen).doesNotContainPattern("\\bpage\\.[a-zA-Z]");
                    assertThat(text).as(seen).contains(texts.get("page.js.metadata.caption"), texts.get("page.drop.title"));
                    if (l != Language.EN) {
                        for (String key : ENGLISH_KEYS) {
                            String english = Texts.of(Language.EN).get(key, "{0}", "{1}").split("\\{\\d}")[0].strip();
                            assertThat(text).as("no English left on the %s page: %s", seen, key).doesNotContain(english);
                        }
                        assertThat(p.get("proofMade").asText()).as("times in ISO form and the language's: " + seen)
                                .containsPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(.+\\)");
                    }
                    JsonNode links = p.get("switchLinks");
                    assertThat(links).as(seen).hasSize(Language.values().length);
                    for (JsonNode a : links) {
                        assertThat(a.get("href").asText()).as("the switch keeps the result shown: " + seen)
                                .isEqualTo("?lang=" + a.get("hreflang").asText() + "#/report/" + id);
                        assertThat(a.get("current").isNull()).as(seen).isEqualTo(!a.get("hreflang").asText().equals(l.tag()));
                    }
                    assertThat(p.get("fingerprintDirection").asText()).as("a fingerprint reads left to right: " + seen).isEqualTo("ltr");
                    for (String field : List.of("fingerprintLeftToRight", "fileNameLeftToRight", "hintFileNameLeftToRight", "timeLeftToRight")) {
                        assertThat(p.get(field).asBoolean()).as("%s: %s", field, seen).isTrue();
                    }
                    if (l.rightToLeft()) {
                        assertThat(p.get("factBorderRight").asText()).as("facts marked on the right: " + seen).isEqualTo("3px");
                        assertThat(p.get("factBorderLeft").asText()).as(seen).isEqualTo("0px");
                        assertThat(p.get("thDirection").asText()).as(seen).isEqualTo("rtl");
                        assertThat(p.get("scaleLabelX").asDouble()).as("the map's scale on the right: " + seen).isEqualTo(190);
                        assertThat(p.get("badge").get("right").asDouble()).as("a check's badge first, on the right: " + seen)
                                .isCloseTo(p.get("checkItem").get("right").asDouble(), org.assertj.core.api.Assertions.within(1.0));
                        if (screen.equals("desktop")) {
                            assertThat(p.get("world").get("left").asDouble()).as("the world map first, on the right: " + seen)
                                    .isGreaterThan(p.get("inset").get("left").asDouble());
                        }
                    } else {
                        assertThat(p.get("factBorderLeft").asText()).as(seen).isEqualTo("3px");
                        assertThat(p.get("scaleLabelX").asDouble()).as(seen).isEqualTo(10);
                        if (screen.equals("desktop")) {
                            assertThat(p.get("world").get("left").asDouble()).as(seen).isLessThan(p.get("inset").get("left").asDouble());
                        }
                    }
                    assertThat(p.get("timeNames")).as("a proof's times: " + seen).isNotEmpty();
                    assertThat(p.get("timeNames").toString()).as("a proof's times named plainly, as the report names them: " + seen)
                            .contains(texts.get("plain.proofMade")).doesNotContain("Proof Generated");
                    Map<String, String> meanings = ReportMeanings.known(l);
                    assertThat(p.get("checks")).as(seen).hasSizeGreaterThan(3);
                    for (JsonNode c : p.get("checks")) {
                        assertThat(c.get("meaning").asText()).as("each check's meaning in the language: %s %s", seen, c.get("code"))
                                .isEqualTo(meanings.get(c.get("code").asText()));
                        assertThat(c.get("found").asText()).as("and what it found under it: " + seen).isNotBlank().isNotEqualTo(c.get("meaning").asText());
                    }
                    assertThat(p.get("reportPdf").asText()).as("the report in the page's language: " + seen)
                            .isEqualTo("/api/v1/reports/" + id + "/pdf?lang=" + java.net.URLEncoder.encode(l.tag(), java.nio.charset.StandardCharsets.UTF_8));
                    assertThat(out.resolve("lang-" + l.tag() + "-" + screen + ".png")).isNotEmptyFile();
                }
            }
        }
    }
}
