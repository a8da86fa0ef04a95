// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.c2pa.C2paStatus.Codes;

class ManifestBuilderTest {
    private final Path home = C2paFixtures.sharedHome();

    private C2paReport read(byte[] asset, boolean withAnchor) {
        List<java.security.cert.X509Certificate> anchors = withAnchor ? LocalCa.anchorsInHome(home) : List.of();
        return new C2paReader(anchors, List.of()).read(asset).orElseThrow();
    }

    @Test
    void sign_trusted_jpegWithLocalCaAnchor() throws Exception {
        byte[] signed = C2paFixtures.created(C2paFixtures.JPEG, C2paFixtures.shared());
        C2paReport r = read(signed, true);
        assertThat(r.state()).isEqualTo(ValidationState.TRUSTED);
        assertThat(r.format()).isEqualTo(AssetFormat.JPEG);
        assertThat(r.assertions()).contains("c2pa.actions.v2", "c2pa.hash.data");
        assertThat(read(signed, false).state()).isEqualTo(ValidationState.VALID);
    }

    @Test
    void sign_trusted_pngWithLocalCaAnchor() throws Exception {
        byte[] signed = C2paFixtures.created(C2paFixtures.PNG, C2paFixtures.shared());
        C2paReport r = read(signed, true);
        assertThat(r.state()).isEqualTo(ValidationState.TRUSTED);
        assertThat(r.format()).isEqualTo(AssetFormat.PNG);
        assertThat(r.has(Codes.DATA_HASH_MATCH)).isTrue();
    }

    @Test
    void read_dataHashMismatch_imageByteFlipped() throws Exception {
        for (Path asset : List.of(C2paFixtures.JPEG, C2paFixtures.PNG)) {
            byte[] signed = C2paFixtures.created(asset, C2paFixtures.shared());
            signed[signed.length - 20] ^= 0x01;
            C2paReport r = read(signed, true);
            assertThat(r.state()).isEqualTo(ValidationState.INVALID);
            assertThat(r.has(Codes.DATA_HASH_MISMATCH)).as(asset.toString()).isTrue();
            assertThat(r.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
        }
    }

    @Test
    void read_hashedUriMismatch_assertionByteChanged() throws Exception {
        byte[] signed = C2paFixtures.created(C2paFixtures.JPEG, C2paFixtures.shared());
        signed[C2paFixtures.indexOf(signed, "c2pa.created") + 6] = 'k';
        C2paReport r = read(signed, true);
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(r.has(Codes.HASHED_URI_MISMATCH)).isTrue();
    }

    @Test
    void read_claimSignatureMismatch_claimByteChanged() throws Exception {
        byte[] signed = C2paFixtures.created(C2paFixtures.PNG, C2paFixtures.shared());
        int at = C2paFixtures.indexOf(signed, "ProofMode for the JVM", C2paFixtures.indexOf(signed, "c2pa.claim.v2"));
        signed[at] = 'p';
        C2paReport r = read(signed, true);
        assertThat(r.has(Codes.CLAIM_SIGNATURE_MISMATCH)).isTrue();
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
    }

    @Test
    void sign_valid_redactionWithParentIngredient() throws Exception {
        byte[] original = Files.readAllBytes(C2paFixtures.JPEG);
        byte[] signed = redaction(original, C2paFixtures.shared());
        C2paReport r = read(signed, true);
        assertThat(r.state()).isEqualTo(ValidationState.TRUSTED);
        assertThat(r.assertions()).contains(ManifestBuilder.INGREDIENT, ManifestBuilder.ACTIONS);
    }

    static byte[] redaction(byte[] original, C2paSigner signer) throws Exception {
        Ingredient parent = new Ingredient("original.jpg", "image/jpeg", ManifestBuilder.sha256(original));
        return new ManifestBuilder().title("redacted.jpg").parent(parent).redacted("c2pa.PII.present")
                .sign(original, signer, Optional.empty());
    }

    @Test
    void sign_trusted_editedActionWithRegionsOfInterest() throws Exception {
        byte[] original = Files.readAllBytes(C2paFixtures.JPEG);
        Ingredient parent = new Ingredient("original.jpg", "image/jpeg", ManifestBuilder.sha256(original));
        byte[] signed = new ManifestBuilder().title("public.jpg").parent(parent)
                .edited("c2pa.edited", "redacted", List.of(new ManifestBuilder.Change(10, 20, 30, 40, "pixelated")))
                .sign(original, C2paFixtures.shared(), Optional.empty());
        assertThat(read(signed, true).state()).isEqualTo(ValidationState.TRUSTED);
        String text = new String(signed, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(text).contains("c2pa.opened", "c2pa.edited", "changes", "rectangle", "pixelated");
    }

    @Test
    void edited_refused_firstActionsOrAnEmptyRectangle() {
        ManifestBuilder b = new ManifestBuilder();
        assertThatThrownBy(() -> b.edited("c2pa.created", "x", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.edited("c2pa.opened", "x", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ManifestBuilder.Change(0, 0, 0, 5, "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sign_onTopWithParentOfIngredient_fileWithContentCredentials() throws Exception {
        for (Path asset : List.of(C2paFixtures.JPEG, C2paFixtures.PNG)) {
            byte[] first = C2paFixtures.created(asset, C2paFixtures.shared());
            String firstLabel = ManifestChain.of(first).orElseThrow().active().label();
            byte[] second = new ManifestBuilder().title("again").created(ManifestBuilder.DIGITAL_CAPTURE)
                    .sign(first, C2paFixtures.shared(), Optional.empty());

            C2paReport r = new C2paReader(List.of(), List.of()).read(second).orElseThrow();
            assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
            ManifestChain chain = ManifestChain.of(second).orElseThrow();
            assertThat(chain.labels()).hasSize(2).startsWith(firstLabel).endsWith(r.activeManifest());
            assertThat(r.has(Codes.INGREDIENT_MANIFEST_VALIDATED)).isTrue();
            String text = new String(second, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(text).contains("c2pa.opened", "validationResults", "claimSignature", "activeManifest");
            assertThat(text.substring(text.indexOf(r.activeManifest()))).doesNotContain("c2pa.created");
        }
    }

    @Test
    void sign_dataHashOverNewFile_storeOfTheOriginalTakenOut() throws Exception {
        byte[] first = C2paFixtures.created(C2paFixtures.JPEG, C2paFixtures.shared());
        byte[] second = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).sign(first, C2paFixtures.shared(), Optional.empty());
        byte[] flipped = second.clone();
        flipped[flipped.length - 10] ^= 1;
        C2paReport r = new C2paReader(List.of(), List.of()).read(flipped).orElseThrow();
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(r.has(Codes.DATA_HASH_MISMATCH)).isTrue();
        assertThat(C2paFixtures.indexOf(second, "c2pa.hash.data")).isPositive();
        assertThat(EmbeddedStore.find(ByteSource.of(second)).orElseThrow().location().start()).isEqualTo(
                EmbeddedStore.find(ByteSource.of(first)).orElseThrow().location().start());
    }

    @Test
    void sign_redactedAssertionGoneAndValid_earlierManifestsMetadata() throws Exception {
        byte[] photo = Files.readAllBytes(C2paFixtures.JPEG);
        com.fasterxml.jackson.databind.node.ObjectNode exif = Cbor.map();
        exif.put("exif:GPSLatitude", "52.516275");
        exif.put("exif:BodySerialNumber", "SN-4711");
        byte[] first = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).jsonAssertion("stds.exif", exif)
                .sign(photo, C2paFixtures.shared(), Optional.empty());
        ManifestChain chain = ManifestChain.of(first).orElseThrow();
        List<ManifestChain.Revealing> revealing = chain.revealing(true);
        assertThat(revealing).singleElement().satisfies(x -> {
            assertThat(x.label()).isEqualTo("stds.exif");
            assertThat(x.why()).isEqualTo(ManifestChain.LOCATION + " and " + ManifestChain.DEVICE);
        });
        String url = revealing.get(0).url();
        byte[] copy = new ManifestBuilder().parent(new Ingredient("original.jpg", "image/jpeg", ManifestBuilder.sha256(first)))
                .onTopOf(chain.redact(List.of(url))).sign(photo, C2paFixtures.shared(), Optional.empty());

        assertThat(new String(first, java.nio.charset.StandardCharsets.ISO_8859_1)).contains("52.516275", "SN-4711");
        assertThat(new String(copy, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("52.516275", "SN-4711")
                .contains("redacted_assertions", "c2pa.redacted", url);
        C2paReport r = new C2paReader(List.of(), List.of()).read(copy).orElseThrow();
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(Codes.ASSERTION_MISSING)).isFalse();
    }

    @Test
    void sign_ingredientMatchedByItsClaimSignature_assertionRedactedFromAnIngredientsIngredient() throws Exception {
        byte[] photo = Files.readAllBytes(C2paFixtures.JPEG);
        com.fasterxml.jackson.databind.node.ObjectNode exif = Cbor.map();
        exif.put("exif:GPSLongitude", "13.377704");
        byte[] first = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).jsonAssertion("stds.exif", exif)
                .sign(photo, C2paFixtures.shared(), Optional.empty());
        byte[] second = new ManifestBuilder().title("edited.jpg").created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(first, C2paFixtures.shared(), Optional.empty());
        ManifestChain chain = ManifestChain.of(second).orElseThrow();
        String url = chain.revealing(false).get(0).url();
        assertThat(url).doesNotContain(chain.active().label());
        byte[] third = new ManifestBuilder().parent(new Ingredient("original.jpg", "image/jpeg", ManifestBuilder.sha256(second)))
                .onTopOf(chain.redact(List.of(url))).sign(photo, C2paFixtures.shared(), Optional.empty());

        assertThat(new String(third, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("13.377704");
        C2paReport r = new C2paReader(List.of(), List.of()).read(third).orElseThrow();
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(Codes.INGREDIENT_CLAIM_SIGNATURE_VALIDATED)).isTrue();
        assertThat(r.has(Codes.INGREDIENT_MANIFEST_MISMATCH)).isFalse();
        assertThat(r.chain()).hasSize(3).allSatisfy(l -> assertThat(l.failures()).isEmpty());
    }

    @Test
    void redact_refused_actionsOrUnknownAssertion() throws Exception {
        byte[] first = C2paFixtures.created(C2paFixtures.JPEG, C2paFixtures.shared());
        ManifestChain chain = ManifestChain.of(first).orElseThrow();
        String base = "self#jumbf=/c2pa/" + chain.active().label() + "/c2pa.assertions/";
        assertThatThrownBy(() -> chain.redact(List.of(base + "c2pa.actions.v2"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chain.redact(List.of(base + "c2pa.hash.data"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chain.redact(List.of(base + "stds.nothing"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sign_refused_copyWithItsOwnCredentialsOnTopOfAnother() throws Exception {
        byte[] first = C2paFixtures.created(C2paFixtures.JPEG, C2paFixtures.shared());
        ManifestChain chain = ManifestChain.of(first).orElseThrow();
        assertThatThrownBy(() -> new ManifestBuilder().parent(new Ingredient("o.jpg", "image/jpeg", new byte[32])).onTopOf(chain)
                .sign(first, C2paFixtures.shared(), Optional.empty()))
                .isInstanceOf(C2paFormatException.class).hasMessageContaining("must not carry credentials");
    }

    @Test
    void sign_refused_unsupportedFormat() {
        assertThatThrownBy(() -> new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign("GIF89a not really".getBytes(java.nio.charset.StandardCharsets.US_ASCII), C2paFixtures.shared(),
                        Optional.empty()))
                .isInstanceOf(C2paFormatException.class);
    }

    @Test
    void sign_evenChunkAndValid_wavEveryTime(@org.junit.jupiter.api.io.TempDir Path cas) throws Exception {
        byte[] pcm = new byte[2001];
        java.io.ByteArrayOutputStream wav = new java.io.ByteArrayOutputStream();
        wav.writeBytes("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        wav.writeBytes(new byte[] {(byte) (4 + 8 + 16 + 8 + pcm.length + 1), (byte) ((4 + 8 + 16 + 8 + pcm.length + 1) >> 8), 0, 0});
        wav.writeBytes("WAVEfmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        wav.writeBytes(new byte[] {16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x40, 0x1F, 0, 0, 1, 0, 8, 0});
        wav.writeBytes("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        wav.writeBytes(new byte[] {(byte) pcm.length, (byte) (pcm.length >> 8), 0, 0});
        wav.writeBytes(pcm);
        wav.write(0);
        // each CA's certificates differ in length by a byte or so: the store's length is odd for some of them
        for (int i = 0; i < 6; i++) {
            C2paSigner signer = C2paFixtures.signer(cas.resolve("ca" + i));
            byte[] signed = new ManifestBuilder().title("t" + i).created(ManifestBuilder.DIGITAL_CAPTURE)
                    .sign(wav.toByteArray(), signer, Optional.empty());
            int at = C2paFixtures.indexOf(signed, "C2PA");
            assertThat(Jumbf.u32le(signed, at + 4) % 2).as("store length").isZero();
            assertThat(Jumbf.u32le(signed, 4)).isEqualTo(signed.length - 8);
            C2paReport r = new C2paReader(LocalCa.anchorsInHome(cas.resolve("ca" + i)), List.of()).read(signed).orElseThrow();
            assertThat(r.format()).isEqualTo(AssetFormat.WAV);
            assertThat(r.has(Codes.DATA_HASH_MATCH)).isTrue();
            assertThat(r.state()).isEqualTo(ValidationState.TRUSTED);
        }
    }

    @Test
    void read_signatureChecked_storeInMp4UuidBox() throws Exception {
        byte[] signed = C2paFixtures.created(C2paFixtures.PNG, C2paFixtures.shared());
        byte[] store = extractStore(signed);
        java.io.ByteArrayOutputStream mp4 = new java.io.ByteArrayOutputStream();
        box(mp4, "ftyp", "isom\0\0\0\1isommp41".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        java.io.ByteArrayOutputStream uuid = new java.io.ByteArrayOutputStream();
        uuid.writeBytes(EmbeddedStore.BMFF_C2PA_UUID);
        uuid.writeBytes(new byte[4]);
        uuid.writeBytes("manifest\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        uuid.writeBytes(new byte[8]);
        uuid.writeBytes(store);
        box(mp4, "uuid", uuid.toByteArray());
        box(mp4, "mdat", new byte[100]);
        C2paReport r = read(mp4.toByteArray(), true);
        assertThat(r.format()).isEqualTo(AssetFormat.MP4);
        assertThat(r.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
        assertThat(r.has(Codes.HASHED_URI_MATCH)).isTrue();
        assertThat(r.has(Codes.SIGNING_CREDENTIAL_TRUSTED)).isTrue();
    }

    private static byte[] extractStore(byte[] asset) throws Exception {
        try (ByteSource src = ByteSource.of(asset)) {
            return EmbeddedStore.find(src).orElseThrow().jumbf();
        }
    }

    private static void box(java.io.ByteArrayOutputStream out, String type, byte[] payload) {
        Jumbf.writeU32(out, 8L + payload.length);
        out.writeBytes(type.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        out.writeBytes(payload);
    }
}
