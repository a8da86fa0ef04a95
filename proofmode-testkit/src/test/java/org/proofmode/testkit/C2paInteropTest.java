// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.Ingredient;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.ValidationState;
import org.proofmode.ProofMode;
import org.proofmode.imaging.Box;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.redact.C2paSeal;
import org.proofmode.redact.Method;
import org.proofmode.redact.RedactionPlan;
import org.proofmode.redact.RedactionRequest;
import org.proofmode.redact.RedactionResult;
import org.proofmode.redact.Redactor;
import org.proofmode.redact.Region;
import org.proofmode.redact.StripPolicy;

/**
 * Our C2PA writer and reader against the reference validator (c2pa-rs as WebAssembly, run by Node):
 * both directions, and tampered files.
 */
class C2paInteropTest {
    private static final Path SAMPLES = Samples.root().resolve("c2pa");
    @TempDir
    static Path home;
    @TempDir
    static Path work;
    private static C2paSigner signer;
    private static Path anchors;

    @BeforeAll
    static void ca() {
        LocalCa ca = new LocalCa(home);
        ca.create(Passphrase.adopt("interop".toCharArray()), "INTEROP", false);
        signer = ca.signer(Passphrase.adopt("interop".toCharArray()));
        anchors = ca.caCertificateFile();
    }

    private static String ours(Path file, boolean withAnchors) throws Exception {
        C2paReader reader = new C2paReader(withAnchors ? LocalCa.anchorsInHome(home) : List.of(), List.of());
        return reader.read(file).map(C2paReport::state).map(ValidationState::name).orElse("none").toLowerCase(Locale.ROOT);
    }

    /** The repository's own photo, or a PNG drawn for the test, by its file name's extension. */
    private static Path own(String kind) {
        return kind.equals("png") ? OwnMedia.png(work.resolve("drawn.png"), 320, 240, 1) : OwnMedia.examplePhoto();
    }

    private static Path signed(Path asset, String name) throws Exception {
        Path out = work.resolve(name);
        byte[] in = Files.readAllBytes(asset);
        Files.write(out, new ManifestBuilder().title(name).created(ManifestBuilder.DIGITAL_CAPTURE).sign(in, signer, Optional.empty()));
        return out;
    }

    @Test
    void validate_sameVerdict_referenceSignedSamples() throws Exception {
        for (String f : List.of("C.jpg", "CA.jpg", "E-sig-CA.jpg", "no_manifest.jpg")) {
            C2paWasm.Result ref = C2paWasm.validate(SAMPLES.resolve(f), "image/jpeg", Optional.empty());
            assertThat(ours(SAMPLES.resolve(f), false)).as(f).isEqualTo(ref.state().toLowerCase(Locale.ROOT));
        }
        assertThat(C2paWasm.validate(SAMPLES.resolve("E-sig-CA.jpg"), "image/jpeg", Optional.empty()).failure())
                .contains("claimSignature.mismatch");
    }

    @Test
    void validate_validThenTrusted_ourJpegAndPng() throws Exception {
        for (String[] f : new String[][] {{"jpg", "ours.jpg", "image/jpeg"}, {"png", "ours.png", "image/png"}}) {
            Path p = signed(own(f[0]), f[1]);
            C2paWasm.Result plain = C2paWasm.validate(p, f[2], Optional.empty());
            assertThat(plain.state()).as(f[1]).isEqualTo("Valid");
            assertThat(plain.failure()).containsExactly("signingCredential.untrusted");
            assertThat(plain.success()).contains("claimSignature.validated", "assertion.dataHash.match", "assertion.hashedURI.match");
            C2paWasm.Result trusted = C2paWasm.validate(p, f[2], Optional.of(anchors));
            assertThat(trusted.state()).as(f[1]).isEqualTo("Trusted");
            assertThat(trusted.failure()).isEmpty();
            assertThat(ours(p, false)).isEqualTo("valid");
            assertThat(ours(p, true)).isEqualTo("trusted");
        }
    }

    @Test
    void validate_dataHashMismatch_imageByteFlipped() throws Exception {
        for (String[] f : new String[][] {{"jpg", "flip.jpg", "image/jpeg"}, {"png", "flip.png", "image/png"}}) {
            Path p = signed(own(f[0]), f[1]);
            byte[] b = Files.readAllBytes(p);
            b[b.length - 20] ^= 0x01;
            Files.write(p, b);
            C2paWasm.Result ref = C2paWasm.validate(p, f[2], Optional.of(anchors));
            assertThat(ref.state()).as(f[1]).isEqualTo("Invalid");
            assertThat(ref.failure()).contains("assertion.dataHash.mismatch");
            assertThat(ours(p, true)).isEqualTo("invalid");
        }
    }

    @Test
    void validate_hashedUriMismatch_assertionByteChanged() throws Exception {
        Path p = signed(OwnMedia.examplePhoto(), "assertion.jpg");
        byte[] b = Files.readAllBytes(p);
        String s = new String(b, StandardCharsets.ISO_8859_1);
        b[s.indexOf("c2pa.created") + 6] = 'k';
        Files.write(p, b);
        C2paWasm.Result ref = C2paWasm.validate(p, "image/jpeg", Optional.of(anchors));
        assertThat(ref.state()).isEqualTo("Invalid");
        assertThat(ref.failure()).contains("assertion.hashedURI.mismatch");
        assertThat(ours(p, true)).isEqualTo("invalid");
    }

    @Test
    void exiftool_listsOurBoxes_jpegAndPng() throws Exception {
        Path exiftool = ExternalTool.require("exiftool");
        for (String[] f : new String[][] {{"jpg", "exif.jpg"}, {"png", "exif.png"}}) {
            Path p = signed(own(f[0]), f[1]);
            ProcessResult r = ExternalTool.run(List.of(exiftool.toString(), "-a", "-G1", "-JUMBF:all", p.toString()),
                    java.util.Map.of(), java.time.Duration.ofSeconds(60));
            assertThat(r.succeeded()).as(r.describe()).isTrue();
            assertThat(r.stdout()).as(f[1]).contains("[JUMBF]", "JUMD Label", ": c2pa\n",
                    "urn:c2pa:", "c2pa.assertions", "c2pa.actions.v2", "c2pa.hash.data", "c2pa.claim.v2", "c2pa.signature");
            assertThat(r.stdout()).contains("c2pa.created", "digitalCapture");
        }
    }

    @Test
    void validate_timeStampValidated_sigTst2FromLoopbackTsa() throws Exception {
        try (OpensslTsa tsa = OpensslTsa.start(work.resolve("tsa"), 0)) {
            byte[] in = Files.readAllBytes(OwnMedia.examplePhoto());
            Path p = work.resolve("stamped.jpg");
            Files.write(p, new ManifestBuilder().title("stamped.jpg").created(ManifestBuilder.DIGITAL_CAPTURE)
                    .sign(in, signer, Optional.of(org.proofmode.ProofMode.at(home).c2paTimeStamper(tsa.url()))));
            assertThat(tsa.requests()).hasSize(1);
            C2paWasm.Result ref = C2paWasm.validate(p, "image/jpeg", Optional.of(anchors));
            assertThat(ref.state()).isEqualTo("Trusted");
            assertThat(ref.success()).contains("timeStamp.validated");
            C2paReport ours = new C2paReader(LocalCa.anchorsInHome(home), org.proofmode.c2pa.Pem.certificates(tsa.caPem()))
                    .read(p).orElseThrow();
            assertThat(ours.state()).isEqualTo(ValidationState.TRUSTED);
            assertThat(ours.has("timeStamp.validated")).isTrue();
            assertThat(ours.has("timeStamp.trusted")).isTrue();
            assertThat(ours.signedAt()).isPresent();
        }
    }

    @Test
    void validate_trusted_redactionManifestWithParentIngredient() throws Exception {
        byte[] original = Files.readAllBytes(OwnMedia.examplePhoto());
        Ingredient parent = new Ingredient("original.jpg", "image/jpeg", MessageDigest.getInstance("SHA-256").digest(original));
        Path p = work.resolve("redacted.jpg");
        Files.write(p, new ManifestBuilder().title("redacted.jpg").parent(parent).redacted("c2pa.PII.present")
                .sign(original, signer, Optional.empty()));
        C2paWasm.Result ref = C2paWasm.validate(p, "image/jpeg", Optional.of(anchors));
        assertThat(ref.failure()).isEmpty();
        assertThat(ref.state()).isEqualTo("Trusted");
        assertThat(ours(p, true)).isEqualTo("trusted");
    }
    @Test
    void validate_trustedWithParentOfIngredient_redactedCopyWrittenByTheRedactor() throws Exception {
        ProofMode pm = ProofMode.at(work.resolve("redactor-home"));
        pm.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("redactor".toCharArray())));
        SigningKey key = pm.keys().unlock(Passphrase.adopt("redactor".toCharArray()));
        Redactor redactor = pm.redactor(() -> key, pm.settings(), StripPolicy.ALL);
        Path original = OwnMedia.examplePhoto();
        RedactionPlan plan = redactor.plan(original, new RedactionRequest(
                List.of(new Region(new Box(10, 10, 40, 30), Method.FILL, Region.Source.MANUAL)), Optional.empty(), StripPolicy.ALL,
                Optional.empty()));
        Path copy = work.resolve("redacted-copy.jpg");

        RedactionResult result = redactor.write(plan, copy, false,
                Optional.of(new C2paSeal(signer, pm.keys().info().fingerprint(), Optional.empty())));

        C2paWasm.Result plain = C2paWasm.validate(copy, "image/jpeg", Optional.empty());
        assertThat(plain.state()).isEqualTo("Valid");
        assertThat(plain.failure()).containsExactly("signingCredential.untrusted");
        C2paWasm.Result ref = C2paWasm.validate(copy, "image/jpeg", Optional.of(anchors));
        assertThat(ref.failure()).isEmpty();
        assertThat(ref.state()).isEqualTo("Trusted");
        assertThat(ref.success()).contains("claimSignature.validated", "assertion.dataHash.match");
        String originalHash = org.proofmode.media.Digests.sha256(original);
        assertThat(ref.ingredients()).containsExactly(new C2paWasm.Ingredient("parentOf", "original.jpg", "urn:sha256:" + originalHash));
        assertThat(ours(copy, true)).isEqualTo("trusted");
        assertThat(result.sha256()).isEqualTo(org.proofmode.media.Digests.sha256(copy));
        assertThat(result.record().original().image().sha256()).isEqualTo(originalHash);
    }
}
