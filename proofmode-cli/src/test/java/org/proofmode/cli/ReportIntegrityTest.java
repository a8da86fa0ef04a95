// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.KeyAttestationChains;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Tamper;

/**
 * {@code report} on the app's device attestations: {@code --integrity-roots}, the words, and the "check it
 * yourself" openssl commands, run exactly as the report prints them, against the app's real {@code good.zip}
 * and against it with an Android key attestation chain made here by openssl (a TEE key, locked and
 * verified, the ProofMode app, the challenge naming the media).
 */
class ReportIntegrityTest {
    private static final String MEDIA = Samples.APP_MEDIA_SHA256;
    private static final String GTS_ROOT = "/etc/ssl/certs/GTS_Root_R1.pem";

    @TempDir
    Path tmp;

    private String report(Path bundle, String name, String... more) {
        Cli cli = new Cli(tmp.resolve("home"));
        Path pdf = tmp.resolve(name + ".pdf");
        List<String> args = new ArrayList<>(List.of("report", "--no-sign", "--date", "2026-03-14T09:00:00Z", "-o", pdf.toString()));
        args.addAll(List.of(more));
        args.add(bundle.toString());
        Cli.Result r = cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        return ReportTools.pdftotext(pdf);
    }

    private List<ReportTools.Ran> runIn(Path bundle, String text, String name) throws Exception {
        Path dir = ReportTools.unpack(bundle, tmp.resolve(name));
        if (Files.exists(tmp.resolve("root.pem"))) {
            // The reader's copy of the roots the report was made with (--integrity-roots).
            Files.copy(tmp.resolve("root.pem"), dir.resolve("GOOGLE-KEY-ATTESTATION-ROOTS.pem"));
        }
        return ReportTools.run(ReportTools.commands(text), dir, tmp.resolve("t-" + name));
    }

    @Test
    void report_gstCommandsSucceed_appGoodZip() throws Exception {
        String text = report(Samples.appGoodZip(), "good");
        assertThat(text.replace("\n", " ")).contains("integrity.safetynet.valid", "5. The device attestations");
        List<ReportTools.Ran> ran = runIn(Samples.appGoodZip(), text, "good");
        List<ReportTools.Ran> integrity = ran.stream().filter(r -> r.command().contains(".gst") || r.command().startsWith("b64url()")).toList();
        assertThat(integrity).hasSizeGreaterThanOrEqualTo(10);
        for (ReportTools.Ran r : integrity) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        String out = String.join("\n", integrity.stream().map(ReportTools.Ran::output).toList());
        assertThat(out).contains("\"apkPackageName\":\"org.witness.proofmode\"", "subject=CN = attest.android.com", "Verified OK",
                MEDIA + ".gst.leaf.pem: OK");
    }

    @Test
    void report_gstCommandFails_signatureChanged() throws Exception {
        Map<String, byte[]> entries = Tamper.readZip(Samples.appGoodZip());
        String gst = new String(entries.get(MEDIA + ".gst"), StandardCharsets.US_ASCII).strip();
        int cut = gst.lastIndexOf('.') + 10;
        String changed = gst.substring(0, cut) + (gst.charAt(cut) == 'A' ? 'B' : 'A') + gst.substring(cut + 1);
        Path bad = tmp.resolve("bad.zip");
        Tamper.replaceEntry(Samples.appGoodZip(), bad, MEDIA + ".gst", changed.getBytes(StandardCharsets.US_ASCII));
        String text = report(bad, "bad");
        assertThat(text).contains("integrity.safetynet.signature.invalid");
        List<ReportTools.Ran> ran = runIn(bad, text, "bad");
        assertThat(ran.stream().filter(r -> r.exit() != 0).map(ReportTools.Ran::command).filter(c -> c.contains(".gst")))
                .singleElement().asString().startsWith("openssl dgst");
    }

    @Test
    void report_integrityRoots_replaceTheSystemStore() throws Exception {
        assertThat(report(Samples.appGoodZip(), "pinned", "--integrity-roots", GTS_ROOT)).contains("integrity.safetynet.valid");
        makeChain();
        String other = report(Samples.appGoodZip(), "other", "--integrity-roots", tmp.resolve("root.pem").toString());
        assertThat(other).contains("integrity.safetynet.chain.invalid").doesNotContain("integrity.safetynet.valid");
    }

    @Test
    void report_integrityRootsMissing_exits61() {
        Cli.Result r = new Cli(tmp.resolve("home")).run("report", "--no-sign", "-o", tmp.resolve("x.pdf").toString(),
                "--integrity-roots", tmp.resolve("none.pem").toString(), Samples.appGoodZip().toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("none.pem");
    }

    @Test
    void report_keyAttestationCommandsSucceed_chainMadeByOpenssl() throws Exception {
        byte[] chain = makeChain();
        Path bundle = tmp.resolve("attested.zip");
        Tamper.addEntry(Samples.appGoodZip(), bundle, MEDIA + ".attest.pem", chain);
        Path roots = Files.writeString(tmp.resolve("roots.pem"), Files.readString(tmp.resolve("root.pem")) + Files.readString(Path.of(GTS_ROOT)));
        String text = report(bundle, "attested", "--integrity-roots", roots.toString());
        String flat = text.replace("\n", " ");
        assertThat(flat).contains("integrity.safetynet.valid").doesNotContain("chain.invalid");
        assertThat(flat).contains("integrity.keyAttestation.valid", "secure hardware (TEE)", "with a locked bootloader and verified boot",
                "It does not show that this key signed the proof");
        List<ReportTools.Ran> ran = runIn(bundle, text, "attested").stream().filter(r -> r.command().contains(".attest.pem")).toList();
        assertThat(ran).hasSize(4);
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        String out = String.join("\n", ran.stream().map(ReportTools.Ran::output).toList());
        assertThat(out).contains(MEDIA + ".attest.pem.leaf.pem: OK", MEDIA);
        // Without --integrity-roots the made chain is not Google's.
        assertThat(report(bundle, "google")).contains("integrity.keyAttestation.chain.invalid");
    }

    @Test
    void report_saysNoMoreThanTheAttestation_softwareOnlyAndUnlocked() throws Exception {
        String software = attestedReport("software", KeyAttestationChains.SOFTWARE, true, KeyAttestationChains.VERIFIED);
        assertThat(software).contains("integrity.keyAttestation.valid", "by Android's software key store, not inside secure hardware",
                "as the phone's software reports it", "integrity.keyAttestation.software").doesNotContain("secure hardware (TEE)");
        String unlocked = attestedReport("unlocked", KeyAttestationChains.TEE, false, KeyAttestationChains.UNVERIFIED);
        assertThat(unlocked).contains("integrity.keyAttestation.valid", "with an unlocked bootloader and an unverified operating system",
                "integrity.keyAttestation.boot.unverified").doesNotContain("locked bootloader and verified boot");
    }

    /** The report's text, joined into one line, of good.zip with a chain made in {@code name} and trusted. */
    private String attestedReport(String name, int level, boolean locked, int boot) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Path bundle = tmp.resolve(name + ".zip");
        Tamper.addEntry(Samples.appGoodZip(), bundle, MEDIA + ".attest.pem", KeyAttestationChains.make(dir, level, locked, boot, MEDIA));
        Path roots = Files.writeString(dir.resolve("roots.pem"), Files.readString(dir.resolve("root.pem")) + Files.readString(Path.of(GTS_ROOT)));
        return report(bundle, name, "--integrity-roots", roots.toString()).replaceAll("\\s+", " ");
    }

    private byte[] makeChain() throws Exception {
        return KeyAttestationChains.make(tmp, KeyAttestationChains.TEE, true, KeyAttestationChains.VERIFIED, MEDIA);
    }
}
