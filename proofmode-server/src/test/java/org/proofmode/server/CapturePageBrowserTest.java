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
import org.proofmode.testkit.HttpsSite;
import org.proofmode.testkit.ProcessResult;

/**
 * What the verification page shows of a collection ({@code src/test/browser/capture.mjs}, Debian's headless
 * Chromium): the capture with the page's addresses as text, never links, and a hostile title (terminal
 * escapes, markup that would run script, a bidirectional override) shown as visible text that runs nothing.
 * The same capture on a phone in Arabic reads right to left with its addresses left to right. The screenshots go
 * to {@code target/browser/capture.png} and {@code target/browser/capture-ar-phone.png}.
 */
class CapturePageBrowserTest {
    @TempDir
    Path home;

    @Test
    void page_showsTheCaptureAsTextOnly_forACollectionWithAHostileTitle() throws Exception {
        Path shot = Files.createDirectories(Path.of("target", "browser").toAbsolutePath()).resolve("capture.png");
        Path arabicShot = shot.resolveSibling("capture-ar-phone.png");
        try (HttpsSite site = HttpsSite.start(); TestServer srv = TestServer.start(home.resolve("srv"), Optional.empty())) {
            Path zip = TestCollections.archive(TestBundles.signer(home.resolve("signer")), site, home, "/hostile",
                    CollectionContract.HOSTILE, 5);
            String base = "http://127.0.0.1:" + srv.server.port();

            ProcessResult r = BrowserScript.run(Path.of("src/test/browser").toAbsolutePath(), "capture.mjs",
                    List.of(base, zip.toString(), shot.toString(), arabicShot.toString()), Map.of(), Duration.ofSeconds(120));

            assertThat(r.exitCode()).as(r.describe()).isZero();
            JsonNode page = TestServer.JSON.readTree(BrowserScript.lastLine(r));
            assertThat(page.get("consoleErrors")).as("no script or CSP errors").isEmpty();
            assertThat(page.get("dialogs")).as("the title's markup ran nothing").isEmpty();
            assertThat(page.get("verdict").asText()).isEqualTo("VALID");
            assertThat(page.get("title").asText()).contains("\\u001b]0;owned\\u0007", "<img src=x onerror=alert(1)>", "\\u202eevil")
                    .doesNotContain("\u001b", "\u202E");
            assertThat(page.get("addresses").toString()).contains(site.uri("/hostile").toString());
            assertThat(page.get("links").asInt()).isZero();
            assertThat(page.get("images").asInt()).isZero();
            assertThat(page.get("scripts").asInt()).isZero();
            assertThat(page.get("media").toString()).contains("media/01.png", "Intact");
            assertThat(shot).isNotEmptyFile();

            // the same capture on a phone in Arabic: right to left, its headings and the checks' meanings in Arabic,
            // the addresses still left to right, nothing scrolling sideways
            JsonNode ar = page.get("arabic");
            Texts texts = Texts.of(Language.AR);
            assertThat(ar.get("dir").asText()).isEqualTo("rtl");
            assertThat(ar.get("verdict").asText()).isEqualTo("VALID");
            assertThat(ar.get("heading").asText()).isEqualTo(texts.get("page.js.capture.title"));
            assertThat(ar.get("captions").toString()).contains(texts.get("page.js.capture.caption"), texts.get("page.js.capture.url"),
                    texts.get("page.js.capture.collected"));
            assertThat(ar.get("addresses").toString()).contains(site.uri("/hostile").toString());
            ar.get("addressDirections").forEach(d -> assertThat(d.asText()).isEqualTo("ltr"));
            Map<String, String> meanings = ReportMeanings.known(Language.AR);
            assertThat(ar.get("meanings")).isNotEmpty();
            ar.get("meanings").forEach(m -> assertThat(meanings).containsValue(m.asText()));
            assertThat(ar.get("scrollWidth").asInt()).as("no sideways scrolling on a phone").isLessThanOrEqualTo(ar.get("innerWidth").asInt());
            assertThat(ar.get("links").asInt()).isZero();
            assertThat(arabicShot).isNotEmptyFile();
        }
    }
}
