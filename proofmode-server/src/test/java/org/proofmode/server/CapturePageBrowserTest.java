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
import org.proofmode.testkit.BrowserScript;
import org.proofmode.testkit.HttpsSite;
import org.proofmode.testkit.ProcessResult;

/**
 * What the verification page shows of a collection ({@code src/test/browser/capture.mjs}, Debian's headless
 * Chromium): the capture with the page's addresses as text, never links, and a hostile title (terminal
 * escapes, markup that would run script, a bidirectional override) shown as visible text that runs nothing.
 * The screenshot goes to {@code target/browser/capture.png}.
 */
class CapturePageBrowserTest {
    @TempDir
    Path home;

    @Test
    void page_showsTheCaptureAsTextOnly_forACollectionWithAHostileTitle() throws Exception {
        Path shot = Files.createDirectories(Path.of("target", "browser").toAbsolutePath()).resolve("capture.png");
        try (HttpsSite site = HttpsSite.start(); TestServer srv = TestServer.start(home.resolve("srv"), Optional.empty())) {
            Path zip = TestCollections.archive(TestBundles.signer(home.resolve("signer")), site, home, "/hostile",
                    CollectionContract.HOSTILE, 5);
            String base = "http://127.0.0.1:" + srv.server.port();

            ProcessResult r = BrowserScript.run(Path.of("src/test/browser").toAbsolutePath(), "capture.mjs",
                    List.of(base, zip.toString(), shot.toString()), Map.of(), Duration.ofSeconds(120));

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
        }
    }
}
