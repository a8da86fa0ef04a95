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
import org.proofmode.testkit.Tamper;

/**
 * What the verification page says of the app's device attestations, in Debian's headless Chromium
 * ({@code src/test/browser/integrity.mjs}): the SafetyNet attestation of {@code good.zip} in plain words, and
 * Android key attestation chains beside it, one of Google's published device chains (Google-rooted, made
 * for other data) and one that ends at Android's software attestation root (not Google's). The chains are
 * the core module's test resources, read in place (see the README beside them).
 */
class IntegrityPageBrowserTest {
    private static final Path CHAINS = Path.of("../proofmode-core/src/test/resources/org/proofmode/verify/key-attestation").toAbsolutePath();

    @TempDir
    Path home;

    @Test
    void page_saysWhatTheAttestationsShowAndNoMore_passingAndFailing() throws Exception {
        String attest = Samples.APP_MEDIA_SHA256 + ".attest.pem";
        Path googleOther = home.resolve("google-other-media.zip");
        Tamper.addEntry(Samples.appGoodZip(), googleOther, attest, Files.readAllBytes(CHAINS.resolve("caiman-sdk36-TEE_EC_RKP.pem")));
        Path software = home.resolve("software-root.zip");
        Tamper.addEntry(Samples.appGoodZip(), software, attest, Files.readAllBytes(CHAINS.resolve("marlin-sdk29-TEE_EC_NONE.pem")));
        try (TestServer srv = TestServer.start(home.resolve("srv"), Optional.empty())) {
            String base = "http://127.0.0.1:" + srv.server.port();
            ProcessResult r = BrowserScript.run(Path.of("src/test/browser").toAbsolutePath(), "integrity.mjs",
                    List.of(base, Samples.appGoodZip().toString(), googleOther.toString(), software.toString()), Map.of(),
                    Duration.ofSeconds(120));
            assertThat(r.exitCode()).as(r.describe()).isZero();
            JsonNode page = TestServer.JSON.readTree(BrowserScript.lastLine(r));
            assertThat(page.get("consoleErrors")).as("no script or CSP errors").isEmpty();
            JsonNode results = page.get("results");

            assertThat(results.get(0).get("verdict").asText()).isEqualTo("VALID");
            assertThat(results.get(0).get("checks").toString()).contains("Google attested on 2022-11-30 at 14:50:05 UTC that the ProofMode app"
                    + " (org.witness.proofmode, signed with its publisher's key) on a device passing Google's integrity checks",
                    "integrity.safetynet.valid").doesNotContain("keyAttestation");

            String other = results.get(1).get("checks").toString();
            assertThat(results.get(1).get("verdict").asText()).isEqualTo("INVALID");
            assertThat(other).contains("the attestation's challenge names no media hash: it is not bound to this proof",
                    "integrity.keyAttestation.challenge.mismatch").doesNotContain("keyAttestation.valid", "secure hardware (TEE)");

            String soft = results.get(2).get("checks").toString();
            assertThat(results.get(2).get("verdict").asText()).isEqualTo("INVALID");
            assertThat(soft).contains("this key attestation is not Google-rooted", "integrity.keyAttestation.chain.invalid")
                    .doesNotContain("keyAttestation.valid", "locked bootloader");
        }
    }
}
