// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.ManifestChain;
import org.proofmode.c2pa.ValidationState;
import org.proofmode.imaging.Box;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.redact.C2paSeal;
import org.proofmode.redact.Method;
import org.proofmode.redact.RedactionPlan;
import org.proofmode.redact.RedactionRequest;
import org.proofmode.redact.Redactor;
import org.proofmode.redact.Region;
import org.proofmode.redact.StripPolicy;

/**
 * Manifests made on top of the content credentials of real camera, phone and AI files (sign on top,
 * redact on top), read by the reference validator (c2pa-rs as WebAssembly): valid, with the whole chain.
 */
class C2paChainInteropTest {
    /** A Truepic Lens capture edited in Photoshop: the capture's stds.exif holds its GPS position. */
    private static final Path EDITED_CAPTURE = Samples.root().resolve("c2pa-conformance-2/truepic-lensdemo-t3.jpg");
    /** A Truepic Lens iPhone capture whose own data hash no longer matches (INVALID as found). */
    private static final Path PHONE_CAPTURE = Samples.root().resolve("c2pa-conformance-2/truepic-lensdemo-t4.jpg");
    /** An Adobe Firefly image (third-party model), PNG. */
    private static final Path AI_PNG = Samples.root().resolve("c2pa-conformance-2/firefly_thirdparty_gemini.png");
    /** A DALL-E image signed by Truepic for ChatGPT, WebP. */
    private static final Path AI_WEBP = Samples.root().resolve("c2pa-conformance-2/DALL-E_cloud_surfing_puppy.webp");
    @TempDir
    static Path home;
    @TempDir
    static Path work;
    private static C2paSigner signer;

    @BeforeAll
    static void ca() {
        LocalCa ca = new LocalCa(home);
        ca.create(Passphrase.adopt("chain".toCharArray()), "CHAIN", false);
        signer = ca.signer(Passphrase.adopt("chain".toCharArray()));
    }

    private static C2paReport ours(Path file) throws Exception {
        return new C2paReader(List.of(), List.of()).read(file).orElseThrow();
    }

    private static List<String> labels(Path file) throws Exception {
        return ManifestChain.of(Files.readAllBytes(file)).orElseThrow().labels();
    }

    /** Only the untrusted signers (no trust anchors given) fail, in any manifest of the store. */
    private static void validWithChain(C2paWasm.Result ref, String what, List<String> earlier) {
        assertThat(ref.state()).as(what + ": " + ref).isEqualTo("Valid");
        assertThat(ref.manifests()).as(what).allSatisfy(f -> assertThat(f.code()).endsWith(".untrusted"));
        assertThat(ref.labels()).as(what).hasSize(earlier.size() + 1).containsAll(earlier);
        assertThat(ref.labels()).as(what).contains(ref.active());
        assertThat(earlier).as(what).doesNotContain(ref.active());
        assertThat(ref.ingredients()).as(what).singleElement().satisfies(i -> assertThat(i.relationship()).isEqualTo("parentOf"));
    }

    @Test
    void sign_validWithWholeChain_realCredentialedFiles() throws Exception {
        List<C2paWasm.Asset> assets = new ArrayList<>();
        List<List<String>> earlier = new ArrayList<>();
        for (Object[] f : new Object[][] {{EDITED_CAPTURE, "image/jpeg", "t3.jpg"}, {PHONE_CAPTURE, "image/jpeg", "t4.jpg"},
            {AI_PNG, "image/png", "firefly.png"}, {AI_WEBP, "image/webp", "dalle.webp"}}) {
            Path in = (Path) f[0];
            Path out = work.resolve("on-top-" + f[2]);
            Files.write(out, new ManifestBuilder().title((String) f[2]).created(ManifestBuilder.DIGITAL_CAPTURE)
                    .sign(Files.readAllBytes(in), signer, Optional.empty()));
            assets.add(new C2paWasm.Asset(out, (String) f[1]));
            earlier.add(labels(in));
            C2paReport report = ours(out);
            assertThat(report.state()).as(out + ": " + report.statuses()).isEqualTo(ValidationState.VALID);
        }
        List<C2paWasm.Result> refs = C2paWasm.validateAll(assets, Optional.empty(), work);
        for (int i = 0; i < assets.size(); i++) {
            validWithChain(refs.get(i), assets.get(i).file().toString(), earlier.get(i));
        }
    }

    @Test
    void sign_invalidParentRecorded_phoneCaptureWhoseHashFails() throws Exception {
        assertThat(ours(PHONE_CAPTURE).state()).isEqualTo(ValidationState.INVALID);
        Path out = work.resolve("t4-recorded.jpg");
        Files.write(out, new ManifestBuilder().title("t4.jpg").created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(Files.readAllBytes(PHONE_CAPTURE), signer, Optional.empty()));
        String bytes = new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1);
        assertThat(bytes).contains("validationResults", "assertion.dataHash.mismatch");
        C2paReport report = ours(out);
        assertThat(report.state()).isEqualTo(ValidationState.VALID);
        assertThat(report.chain().get(0).recorded()).containsExactly("assertion.dataHash.mismatch");
        assertThat(report.chain().get(1).recorded()).isEmpty();
        assertThat(C2paWasm.validate(out, "image/jpeg", Optional.empty()).state()).isEqualTo("Valid");
    }

    @Test
    void redact_validAndCoordinatesGone_phoneAndEditedCaptures() throws Exception {
        ProofMode pm = ProofMode.at(work.resolve("redactor-home"));
        pm.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("redactor".toCharArray())));
        SigningKey key = pm.keys().unlock(Passphrase.adopt("redactor".toCharArray()));
        Redactor redactor = pm.redactor(() -> key, pm.settings(), StripPolicy.ALL);
        List<C2paWasm.Asset> assets = new ArrayList<>();
        List<List<String>> earlier = new ArrayList<>();
        for (Path original : List.of(PHONE_CAPTURE, EDITED_CAPTURE)) {
            RedactionPlan plan = redactor.plan(original, new RedactionRequest(
                    List.of(new Region(new Box(10, 10, 40, 30), Method.FILL, Region.Source.MANUAL)), Optional.empty(), StripPolicy.ALL,
                    Optional.empty()));
            assertThat(plan.credentialsRedacted()).as(original.toString())
                    .anySatisfy(r -> assertThat(r.why()).contains(ManifestChain.LOCATION));
            String latitude = latitudeOf(original);
            assertThat(Files.readString(original, StandardCharsets.ISO_8859_1)).contains(latitude);
            Path copy = work.resolve("redacted-" + original.getFileName());
            redactor.write(plan, copy, false, Optional.of(new C2paSeal(signer, pm.keys().info().fingerprint(), Optional.empty())));

            assertThat(Files.readString(copy, StandardCharsets.ISO_8859_1)).as(copy.toString()).doesNotContain(latitude);
            ProcessResult exif = ExternalTool.run(List.of(ExternalTool.require("exiftool").toString(), "-a", "-G1", "-ee", "-n",
                    copy.toString()), java.util.Map.of(), java.time.Duration.ofSeconds(60));
            assertThat(exif.succeeded()).as(exif.describe()).isTrue();
            assertThat(exif.stdout()).doesNotContain(latitude).doesNotContain("GPSLatitude");
            C2paReport report = ours(copy);
            assertThat(report.state()).as(copy + ": " + report.statuses()).isEqualTo(ValidationState.VALID);
            assets.add(new C2paWasm.Asset(copy, "image/jpeg"));
            earlier.add(labels(original));
        }
        List<C2paWasm.Result> refs = C2paWasm.validateAll(assets, Optional.empty(), work);
        for (int i = 0; i < assets.size(); i++) {
            validWithChain(refs.get(i), assets.get(i).file().toString(), earlier.get(i));
        }
    }

    @Test
    void redact_validByClaimSignature_assertionRedactedFromAnIngredientsIngredient() throws Exception {
        byte[] photo = Files.readAllBytes(OwnMedia.examplePhoto());
        com.fasterxml.jackson.databind.node.ObjectNode exif = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        exif.put("exif:GPSLongitude", "13.377704");
        byte[] first = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).jsonAssertion("stds.exif", exif)
                .sign(photo, signer, Optional.empty());
        byte[] second = new ManifestBuilder().title("edited.jpg").created(ManifestBuilder.DIGITAL_CAPTURE).sign(first, signer, Optional.empty());
        ManifestChain chain = ManifestChain.of(second).orElseThrow();
        byte[] third = new ManifestBuilder().parent(new org.proofmode.c2pa.Ingredient("original.jpg", "image/jpeg",
                java.security.MessageDigest.getInstance("SHA-256").digest(second))).onTopOf(chain.redact(List.of(chain.revealing(false).get(0).url())))
                .sign(photo, signer, Optional.empty());
        Path out = work.resolve("three-levels.jpg");
        Files.write(out, third);

        assertThat(Files.readString(out, StandardCharsets.ISO_8859_1)).doesNotContain("13.377704");
        C2paWasm.Result ref = C2paWasm.validate(out, "image/jpeg", Optional.empty());
        validWithChain(ref, out.toString(), chain.labels());
        assertThat(ours(out).state()).isEqualTo(ValidationState.VALID);
    }

    @Test
    void update_validAndContentUntouched_cameraAndEditedJpegs() throws Exception {
        List<C2paWasm.Asset> assets = new ArrayList<>();
        List<List<String>> earlier = new ArrayList<>();
        for (Path in : List.of(Samples.root().resolve("c2pa/C.jpg"), EDITED_CAPTURE)) {
            Path out = work.resolve("updated-" + in.getFileName());
            byte[] before = Files.readAllBytes(in);
            byte[] after = ContentCredentials.update(before, out, false, "0123456789ABCDEF0123456789ABCDEF01234567", "2026-12-06T04:00:00Z",
                    signer, Optional.empty());
            assertThat(Files.readAllBytes(out)).isEqualTo(after);
            C2paReport report = ours(out);
            assertThat(report.state()).as(out + ": " + report.statuses()).isEqualTo(ValidationState.VALID);
            assertThat(report.proofModeSigner()).contains("0123456789ABCDEF0123456789ABCDEF01234567");
            assertThat(report.has("assertion.dataHash.match")).isTrue();
            assertThat(new String(after, StandardCharsets.ISO_8859_1)).contains("c2um");
            assertThat(tail(after)).as("the image data after the store is unchanged").isEqualTo(tail(before));
            assertThat(java.util.Arrays.copyOf(after, 2)).isEqualTo(java.util.Arrays.copyOf(before, 2));
            assets.add(new C2paWasm.Asset(out, "image/jpeg"));
            earlier.add(labels(in));
        }
        List<C2paWasm.Result> refs = C2paWasm.validateAll(assets, Optional.empty(), work);
        for (int i = 0; i < assets.size(); i++) {
            validWithChain(refs.get(i), assets.get(i).file().toString(), earlier.get(i));
            assertThat(refs.get(i).success()).as(assets.get(i).file().toString()).contains("assertion.dataHash.match");
        }
    }

    /** The last 16 KiB of a file: image data, past the manifest store. */
    private static byte[] tail(byte[] file) {
        return java.util.Arrays.copyOfRange(file, file.length - 16384, file.length);
    }

    /** The GPS latitude text the original's stds.exif assertion holds. */
    private static String latitudeOf(Path original) throws Exception {
        String text = Files.readString(original, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("GPSLatitude\":\"");
        assertThat(at).as("no GPSLatitude in " + original).isPositive();
        int from = at + "GPSLatitude\":\"".length();
        return text.substring(from, text.indexOf('"', from));
    }
}
