// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.KeyAttestationChains;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Tamper;

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

    /** The app's good.zip with a key attestation chain made by openssl beside its proof; the chain's root is tmp/root.pem. */
    private Path attested(int level, boolean locked, int boot) throws Exception {
        Path bundle = tmp.resolve("attested.zip");
        Tamper.addEntry(Samples.appGoodZip(), bundle, Samples.APP_MEDIA_SHA256 + ".attest.pem",
                KeyAttestationChains.make(tmp, level, locked, boot, Samples.APP_MEDIA_SHA256));
        return bundle;
    }

    /** Verifies with the made chain's root and Google's SafetyNet root in one --integrity-roots file, as the help says. */
    private Cli.Result verifyAttested(Path bundle, String... more) throws Exception {
        Path roots = java.nio.file.Files.writeString(tmp.resolve("roots.pem"), java.nio.file.Files.readString(tmp.resolve("root.pem"))
                + java.nio.file.Files.readString(Path.of("/etc/ssl/certs/GTS_Root_R1.pem")));
        List<String> args = new ArrayList<>(List.of("verify", "--integrity-roots", roots.toString()));
        args.addAll(List.of(more));
        args.add(bundle.toString());
        return cli().run(args.toArray(String[]::new));
    }

    @Test
    void verify_saysSecureHardwareLockedVerified_keyAttestationPassing() throws Exception {
        Cli.Result r = verifyAttested(attested(KeyAttestationChains.TEE, true, KeyAttestationChains.VERIFIED));
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS  integrity.keyAttestation.valid", "A key was made inside the phone's secure hardware (TEE) for"
                + " this media, on a device with a locked bootloader and verified boot, at the request of the ProofMode app",
                "It does not show that this key signed the proof").doesNotContain("keyAttestation.software", "keyAttestation.boot");
    }

    @Test
    void verify_exits3NotGoogleRooted_keyAttestationFailing() throws Exception {
        Path bundle = attested(KeyAttestationChains.TEE, true, KeyAttestationChains.VERIFIED);
        Cli.Result r = cli().run("verify", bundle.toString());
        assertThat(r.exit()).as(r.out()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.out()).contains("FAIL  integrity.keyAttestation.chain.invalid", "this key attestation is not Google-rooted")
                .doesNotContain("secure hardware (TEE)", "locked bootloader");
    }

    @Test
    void verify_saysSoftwareNotHardware_keyAttestationSoftwareOnly() throws Exception {
        Cli.Result r = verifyAttested(attested(KeyAttestationChains.SOFTWARE, true, KeyAttestationChains.VERIFIED));
        assertThat(r.out()).contains("PASS  integrity.keyAttestation.valid", "by Android's software key store, not inside secure hardware",
                "as the phone's software reports it", "WARN  integrity.keyAttestation.software").doesNotContain("secure hardware (TEE)");
    }

    @Test
    void verify_saysUnlocked_keyAttestationUnlockedBootloader() throws Exception {
        Cli.Result r = verifyAttested(attested(KeyAttestationChains.TEE, false, KeyAttestationChains.UNVERIFIED));
        assertThat(r.out()).contains("PASS  integrity.keyAttestation.valid", "on a device with an unlocked bootloader and an unverified"
                + " operating system", "WARN  integrity.keyAttestation.boot.unverified").doesNotContain("locked bootloader and verified boot");
    }

    @Test
    void verify_exits3Revoked_attestationStatusListsTheCa() throws Exception {
        Path bundle = attested(KeyAttestationChains.TEE, true, KeyAttestationChains.VERIFIED);
        Process p = new ProcessBuilder("openssl", "x509", "-in", tmp.resolve("ca.pem").toString(), "-noout", "-serial").start();
        String serial = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip().replace("serial=", "");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Path status = java.nio.file.Files.writeString(tmp.resolve("status.json"),
                "{\"entries\": {\"" + serial + "\": {\"status\": \"REVOKED\", \"reason\": \"KEY_COMPROMISE\"}}}");
        Cli.Result r = verifyAttested(bundle, "--attestation-status", status.toString());
        assertThat(r.exit()).as(r.out()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.out()).contains("FAIL  integrity.keyAttestation.revoked", "REVOKED (KEY_COMPROMISE)");
    }

    @Test
    void verify_exits41_attestationStatusNotAList() throws Exception {
        Path status = java.nio.file.Files.writeString(tmp.resolve("status.json"), "[1, 2]");
        Cli.Result r = cli().run("verify", "--attestation-status", status.toString(), Samples.appGoodZip().toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(r.err()).contains("not an attestation status list");
    }
}
