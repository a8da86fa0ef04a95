// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Samples;

/** {@code verify} on the app's device attestation ({@code .gst}): text, JSON, and {@code --integrity-roots}. */
class VerifyIntegrityTest {
    @TempDir
    Path tmp;

    private Cli cli() {
        return new Cli(tmp.resolve("home"));
    }

    @Test
    void verify_printsWhatGoogleAttested_appGoodZip() {
        Cli.Result r = cli().run("verify", Samples.appGoodZip().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("PASS  integrity.safetynet.valid", "Google attested on 2022-11-30 at 14:50:05 UTC that the ProofMode app")
                .doesNotContain(".gst: present");
    }

    @Test
    void verifyJson_carriesIntegrityCheck_appGoodZip() throws Exception {
        Cli.Result r = cli().run("verify", "--json", Samples.appGoodZip().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode checks = new ObjectMapper().readTree(r.out()).path("proofs").get(0).path("checks");
        assertThat(checks.findValuesAsText("code")).contains("integrity.safetynet.valid");
    }

    @Test
    void verify_exits0_integrityRootsPinnedToGoogle() {
        Cli.Result r = cli().run("verify", "--integrity-roots", "/etc/ssl/certs/GTS_Root_R1.pem", Samples.appGoodZip().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("PASS  integrity.safetynet.valid");
    }

    @Test
    void verify_exits3ChainInvalid_integrityRootsPinnedElsewhere() throws Exception {
        Path key = tmp.resolve("k.pem");
        Path cert = tmp.resolve("other-root.pem");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", "/CN=Other Root", "-days", "2", "-keyout", key.toString(), "-out", cert.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        Cli.Result r = cli().run("verify", "--integrity-roots", cert.toString(), Samples.appGoodZip().toString());
        assertThat(r.exit()).as(r.out()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.out()).contains("FAIL  integrity.safetynet.chain.invalid");
    }

    @Test
    void verify_exits61_integrityRootsMissing() {
        Cli.Result r = cli().run("verify", "--integrity-roots", tmp.resolve("none.pem").toString(), Samples.appGoodZip().toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(r.err().lines().count()).isEqualTo(1);
    }
}
