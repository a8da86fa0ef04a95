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
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Samples;

/**
 * What a person sees first after pressing Check, by keyboard only, on a desktop (1280×800) and a phone
 * (390×844, device scale 3, touch) in Debian's headless Chromium ({@code src/test/browser/first-look.mjs}):
 * the result's heading with the keyboard focus and the verdict under it, both in view, the verdict's words
 * told to a screen reader, and a page that does not scroll sideways. Screenshots of both views go to {@code target/browser/}.
 */
class FirstLookBrowserTest {
    @TempDir
    Path home;

    @Test
    void check_verdictInViewFocusedAndAnnounced_desktopAndPhone() throws Exception {
        Path out = Files.createDirectories(Path.of("target", "browser").toAbsolutePath());
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            String base = "http://127.0.0.1:" + srv.server.port();
            ProcessResult r = BrowserScript.run(Path.of("src/test/browser").toAbsolutePath(), "first-look.mjs",
                    List.of(base, Samples.appGoodZip().toString(), out.toString()), Map.of(), Duration.ofSeconds(120));
            assertThat(r.exitCode()).as(r.describe()).isZero();
            JsonNode page = TestServer.JSON.readTree(BrowserScript.lastLine(r));
            for (String name : List.of("desktop", "phone")) {
                JsonNode s = page.get("screens").get(name);
                String seen = name + ": " + s;
                assertThat(s.get("verdict").asText()).as(seen).isEqualTo("VALID");
                assertThat(s.get("tabs").toString()).as("Tab reaches the file input, then Check: " + seen)
                        .contains("\"files\"").contains("\"check\"");
                assertThat(s.get("top").asDouble()).as("the verdict's top is in view: " + seen).isGreaterThanOrEqualTo(0);
                assertThat(s.get("bottom").asDouble()).as("the verdict's bottom is in view: " + seen)
                        .isLessThanOrEqualTo(s.get("innerHeight").asDouble());
                assertThat(s.get("pageHeight").asInt()).as("a result taller than the view: " + seen)
                        .isGreaterThan(s.get("innerHeight").asInt() * 2);
                assertThat(s.get("focusTag").asText()).as("focus on the result's heading: " + seen).isEqualTo("H2");
                assertThat(s.get("focusText").asText()).as(seen).isEqualTo("Result for good.zip");
                assertThat(s.get("focusIsAboveVerdict").asBoolean()).as("the verdict right under it: " + seen).isTrue();
                assertThat(s.get("focusTop").asDouble()).as("the focused heading in view: " + seen).isGreaterThanOrEqualTo(0);
                // A phone widens its layout viewport to the widest line (innerWidth), then shrinks the page to fit.
                assertThat(s.get("innerWidth").asInt()).as("the page keeps the screen's width: " + seen)
                        .isEqualTo(name.equals("phone") ? 390 : 1280);
                assertThat(s.get("scrollWidth").asInt()).as("no sideways scrolling: " + seen)
                        .isLessThanOrEqualTo(s.get("innerWidth").asInt());
                JsonNode told = s.get("announcer");
                assertThat(told.isObject()).as("a live region outside the result: " + seen).isTrue();
                assertThat(told.get("role").asText()).isEqualTo("status");
                assertThat(told.get("text").asText()).as(seen).startsWith("Result: Intact — signer not confirmed.");
                assertThat(s.get("resultLive").isNull()).as("the whole result is not read out as it changes: " + seen).isTrue();
                assertThat(out.resolve("first-look-" + name + ".png")).isNotEmptyFile();
            }
            assertThat(page.get("consoleErrors")).as("no script or CSP errors").isEmpty();
        }
    }
}
