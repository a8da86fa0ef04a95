// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.DERTaggedObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Tamper;
import org.proofmode.verify.DeviceIntegrityChecks;

/**
 * {@code report} on the app's device attestations: {@code --integrity-roots}, the words, and the "check it
 * yourself" openssl commands, run exactly as the report prints them, against the app's real {@code good.zip}
 * and against it with an Android key attestation chain made here by openssl (a TEE key, locked and
 * verified, the ProofMode app, the challenge naming the media).
 */
class ReportIntegrityTest {
    private static final String MEDIA = Samples.APP_MEDIA_SHA256;
    private static final String GTS_ROOT = "/etc/ssl/certs/GTS_Root_R1.pem";
    /** The key attestation extension's object identifier, as Android's specification gives it. */
    private static final String KEY_ATTESTATION_OID = "1.3.6.1.4.1.11129.2.1.17";

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
        String text = report(bundle, "attested", "--integrity-roots", tmp.resolve("root.pem").toString());
        String flat = text.replace("\n", " ");
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

    /** Root, attestation CA and leaf by openssl; the leaf carries a KeyDescription naming the media. Returns the chain. */
    private byte[] makeChain() throws Exception {
        Path d = tmp;
        sh("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem -days 3650"
                + " -subj '/CN=Test Attestation Root' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign", d);
        sh("openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.csr -subj '/O=TEE/CN=Test TEE'", d);
        Files.writeString(d.resolve("ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n");
        sh("openssl x509 -req -in ca.csr -CA root.pem -CAkey root.key -CAcreateserial -days 3650 -extfile ca.ext -out ca.pem", d);
        sh("openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr -subj '/CN=Android Keystore Key'", d);
        Files.writeString(d.resolve("leaf.ext"), "keyUsage=critical,digitalSignature\n" + KEY_ATTESTATION_OID + "=DER:"
                + HexFormat.of().formatHex(keyDescription()) + "\n");
        sh("openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 365 -extfile leaf.ext -out leaf.pem", d);
        return (Files.readString(d.resolve("leaf.pem")) + Files.readString(d.resolve("ca.pem")) + Files.readString(d.resolve("root.pem")))
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The specification's KeyDescription: TEE, locked and verified, the ProofMode app, the media as challenge. */
    private static byte[] keyDescription() throws Exception {
        byte[] digest = java.util.Base64.getDecoder().decode(DeviceIntegrityChecks.PROOFMODE_ANDROID.signingCertSha256());
        byte[] appId = new DERSequence(new ASN1Encodable[] {
            new DERSet(new DERSequence(new ASN1Encodable[] {new DEROctetString("org.witness.proofmode".getBytes(StandardCharsets.UTF_8)),
                new ASN1Integer(1)})),
            new DERSet(new DEROctetString(digest))}).getEncoded(ASN1Encoding.DER);
        ASN1Encodable software = new DERSequence(new DERTaggedObject(true, 709, new DEROctetString(appId)));
        ASN1Encodable hardware = new DERSequence(new DERTaggedObject(true, 704, new DERSequence(new ASN1Encodable[] {
            new DEROctetString(new byte[32]), ASN1Boolean.TRUE, new ASN1Enumerated(0), new DEROctetString(new byte[32])})));
        return new DERSequence(new ASN1Encodable[] {new ASN1Integer(100), new ASN1Enumerated(1), new ASN1Integer(100), new ASN1Enumerated(1),
            new DEROctetString(MEDIA.getBytes(StandardCharsets.US_ASCII)), new DEROctetString(new byte[0]), software, hardware})
                .getEncoded(ASN1Encoding.DER);
    }

    private static void sh(String command, Path dir) {
        ProcessResult r = ExternalTool.run(List.of("bash", "-c", command), Map.of(), java.time.Duration.ofSeconds(30), dir);
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }
}
