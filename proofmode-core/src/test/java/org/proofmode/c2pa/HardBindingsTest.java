// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.verify.C2paChecks;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;

/**
 * Hard bindings of every kind, against files written by others (samples/c2pa-conformance, read in
 * place) and damaged copies of them.
 */
class HardBindingsTest {
    private static final Path DIR = TestHomes.samples().resolve("c2pa-conformance");
    private final C2paReader reader = new C2paReader(List.of(), List.of());

    private C2paReport read(String name) throws Exception {
        return reader.read(DIR.resolve(name)).orElseThrow();
    }

    private C2paReport read(byte[] asset) {
        return reader.read(asset).orElseThrow();
    }

    @Test
    void read_bmffHashMatch_bmffFilesOfOthers() throws Exception {
        for (String f : List.of("video1.mp4", "legacy.mp4", "prmiere-firefly.mp4", "PTS_TRUSTED_sony_official_cawg_wdr.mp4",
                "sony_official_teletrax.mp4", "PTS_INVALID_INGREDIENT.mp4", "trustnxt-icon-signed-v2-bmff.heic")) {
            C2paReport r = read(f);
            assertThat(r.has(Codes.BMFF_HASH_MATCH)).as(f).isTrue();
            assertThat(r.has(Codes.HARD_BINDING_UNCHECKED)).as(f).isFalse();
        }
        assertThat(read("video1.mp4").state()).isEqualTo(ValidationState.VALID);
        assertThat(read("legacy.mp4").state()).isEqualTo(ValidationState.VALID);
    }

    @Test
    void read_bmffHashMismatch_byteFlippedInMdat() throws Exception {
        for (String f : List.of("video1.mp4", "legacy.mp4", "trustnxt-icon-signed-v2-bmff.heic")) {
            byte[] b = Files.readAllBytes(DIR.resolve(f));
            int at = Bytes.mdatPayload(b) + 100;
            b[at] ^= 0x01;
            C2paReport r = read(b);
            assertThat(r.has(Codes.BMFF_HASH_MISMATCH)).as(f).isTrue();
            assertThat(r.state()).as(f).isEqualTo(ValidationState.INVALID);
        }
    }

    @Test
    void read_bmffHashMismatch_topLevelBoxMovedWithItsBytes() throws Exception {
        // v2 hashes each top-level box's offset: a free box inserted before mdat moves it and breaks the hash
        byte[] b = Files.readAllBytes(DIR.resolve("video1.mp4"));
        int mdat = Bytes.mdatBox(b);
        byte[] moved = new byte[b.length + 8];
        System.arraycopy(b, 0, moved, 0, mdat);
        moved[mdat + 3] = 8;
        moved[mdat + 4] = 'f';
        moved[mdat + 5] = 'r';
        moved[mdat + 6] = 'e';
        moved[mdat + 7] = 'e';
        System.arraycopy(b, mdat, moved, mdat + 8, b.length - mdat);
        C2paReport r = read(moved);
        assertThat(r.has(Codes.BMFF_HASH_MISMATCH)).isTrue();
    }

    @Test
    void read_bmffHashMismatch_initSegmentWithoutItsFragments() throws Exception {
        C2paReport r = read("dashinit.mp4");
        assertThat(r.has(Codes.BMFF_HASH_MISMATCH)).isTrue();
        assertThat(r.has(Codes.HARD_BINDINGS_MISSING)).isFalse();
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
    }

    @Test
    void read_dataHashMismatch_exclusionCoversMoreThanTheStore() throws Exception {
        C2paReport r = read("truepic-20230212-camera.jpg");
        assertThat(r.has(Codes.DATA_HASH_MISMATCH)).isTrue();
        assertThat(r.has(Codes.DATA_HASH_MATCH)).isFalse();
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(r.statuses()).filteredOn(s -> s.code().equals(Codes.DATA_HASH_MISMATCH))
                .extracting(C2paStatus::explanation).allMatch(e -> e.contains("[0, 206316)") && e.contains("[13617, 206316)"));
    }

    @Test
    void read_dataHashMatch_exclusionExactlyTheStore() throws Exception {
        for (String f : List.of("adobe-20220124-C.jpg", "amazon-titan-g1.png", "C_with_CAWG_data.jpg", "ocsp.jpg")) {
            assertThat(read(f).has(Codes.DATA_HASH_MATCH)).as(f).isTrue();
        }
    }

    @Test
    void read_dataHashMatch_tiffDngAndRiffWav() throws Exception {
        C2paReport dng = read("C.dng");
        assertThat(dng.format()).isEqualTo(AssetFormat.TIFF);
        assertThat(dng.has(Codes.DATA_HASH_MATCH)).isTrue();
        assertThat(dng.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
        assertThat(dng.state()).isEqualTo(ValidationState.VALID);
        C2paReport wav = read("sample1_signed.wav");
        assertThat(wav.format()).isEqualTo(AssetFormat.WAV);
        assertThat(wav.has(Codes.DATA_HASH_MATCH)).isTrue();
        assertThat(wav.state()).isEqualTo(ValidationState.VALID);
    }

    @Test
    void read_dataHashMismatch_contentByteFlippedInDngAndWav() throws Exception {
        for (String f : List.of("C.dng", "sample1_signed.wav")) {
            byte[] b = Files.readAllBytes(DIR.resolve(f));
            b[b.length / 2] ^= 0x01;
            C2paReport r = read(b);
            assertThat(r.has(Codes.DATA_HASH_MISMATCH)).as(f).isTrue();
            assertThat(r.state()).as(f).isEqualTo(ValidationState.INVALID);
        }
    }

    @Test
    void read_storeFound_mp3Id3GeobFrame() throws Exception {
        byte[] png = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(Files.readAllBytes(C2paFixtures.PNG), C2paFixtures.shared(), Optional.empty());
        byte[] store;
        try (ByteSource src = ByteSource.of(png)) {
            store = EmbeddedStore.find(src).orElseThrow().jumbf();
        }
        java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
        frame.write(0);
        frame.writeBytes("application/c2pa\0c2pa\0c2pa manifest store\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        frame.writeBytes(store);
        java.io.ByteArrayOutputStream mp3 = new java.io.ByteArrayOutputStream();
        mp3.writeBytes(new byte[] {'I', 'D', '3', 3, 0, 0});
        int tag = 10 + frame.size();
        mp3.writeBytes(new byte[] {(byte) ((tag >> 21) & 0x7F), (byte) ((tag >> 14) & 0x7F), (byte) ((tag >> 7) & 0x7F), (byte) (tag & 0x7F)});
        mp3.writeBytes("GEOB".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Jumbf.writeU32(mp3, frame.size());
        mp3.writeBytes(new byte[2]);
        mp3.writeBytes(frame.toByteArray());
        mp3.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xFB, (byte) 0x90, 0x00});
        mp3.writeBytes(new byte[400]);
        C2paReport r = read(mp3.toByteArray());
        assertThat(r.format()).isEqualTo(AssetFormat.MP3);
        assertThat(r.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
        assertThat(r.has(Codes.DATA_HASH_MISMATCH)).as("the binding is the PNG's").isTrue();
    }

    @Test
    void read_empty_formatsWithoutManifest() throws Exception {
        for (String f : List.of("mars.webp", "c.mov", "test-video.mp4")) {
            assertThat(reader.read(DIR.resolve(f))).as(f).isEmpty();
        }
        assertThat(AssetFormat.sniff(Files.readAllBytes(DIR.resolve("mars.webp")))).contains(AssetFormat.WEBP);
        assertThat(AssetFormat.sniff(Files.readAllBytes(DIR.resolve("c.mov")))).contains(AssetFormat.MP4);
    }

    @Test
    void read_incompleteAndWarned_bindingOfAnUncheckedKind() throws Exception {
        ObjectNode boxes = Cbor.map();
        ArrayNode list = boxes.putArray("boxes");
        ObjectNode one = list.addObject();
        one.putArray("names").add("SOI");
        one.put("hash", new byte[32]);
        byte[] signed = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).cborAssertion("c2pa.hash.collection.data", boxes)
                .sign(Files.readAllBytes(C2paFixtures.JPEG), C2paFixtures.shared(), Optional.empty());
        C2paReport r = read(signed);
        assertThat(r.has(Codes.HARD_BINDING_UNCHECKED)).isTrue();
        assertThat(r.state()).isEqualTo(ValidationState.INCOMPLETE);
        Path file = Files.createTempFile("boxhash", ".jpg");
        try {
            Files.write(file, signed);
            C2paChecks.Result checks = new C2paChecks(reader).of(file);
            assertThat(checks.verdict()).contains(Verdict.INCOMPLETE);
            assertThat(checks.checks()).filteredOn(c -> c.code().equals("c2pa." + Codes.HARD_BINDING_UNCHECKED))
                    .extracting(c -> c.status()).containsExactly(Status.WARN);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void proves_trueOnlyForTheRightLeaf_merkleTreeOfFiveFragments() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            leaves.add(sha.digest(new byte[] {(byte) i}));
        }
        // C2PA tree: an odd last node goes up unhashed; layers 5, 3, 2, 1
        byte[] n01 = cat(sha, leaves.get(0), leaves.get(1));
        byte[] n23 = cat(sha, leaves.get(2), leaves.get(3));
        byte[] n0123 = cat(sha, n01, n23);
        byte[] root = cat(sha, n0123, leaves.get(4));
        ObjectNode map = Cbor.map();
        map.put("count", 5);
        map.putArray("hashes").add(root);
        ArrayNode proof3 = Cbor.map().arrayNode().add(leaves.get(2)).add(n01).add(leaves.get(4));
        ArrayNode proof4 = Cbor.map().arrayNode().add(n0123);
        assertThat(BmffMerkle.proves(map, "sha256", leaves.get(3), 3, proof3)).isTrue();
        assertThat(BmffMerkle.proves(map, "sha256", leaves.get(4), 4, proof4)).isTrue();
        assertThat(BmffMerkle.proves(map, "sha256", leaves.get(2), 3, proof3)).isFalse();
        assertThat(BmffMerkle.proves(map, "sha256", leaves.get(3), 5, proof3)).isFalse();
        ObjectNode stored = Cbor.map();
        stored.put("count", 5);
        stored.putArray("hashes").add(n0123).add(leaves.get(4));
        assertThat(BmffMerkle.proves(stored, "sha256", leaves.get(4), 4, Cbor.map().arrayNode())).isTrue();
        assertThat(BmffMerkle.proves(stored, "sha256", leaves.get(1), 1, Cbor.map().arrayNode().add(leaves.get(0)).add(n23)))
                .isTrue();
        assertThat(BmffMerkle.layout(5)).containsExactly(5L, 3L, 2L, 1L);
    }

    private static byte[] cat(MessageDigest sha, byte[] a, byte[] b) {
        sha.update(a);
        sha.update(b);
        return sha.digest();
    }

    /** Finds boxes in a file held in memory. */
    static final class Bytes {
        private Bytes() {}

        /** The offset of the first byte of the top-level mdat's payload. */
        static int mdatPayload(byte[] b) {
            int at = mdatBox(b);
            return at + (Jumbf.u32(b, at) == 1 ? 16 : 8);
        }

        /** The offset of the top-level mdat box. */
        static int mdatBox(byte[] b) {
            int pos = 0;
            while (pos + 8 <= b.length) {
                long len = Jumbf.u32(b, pos);
                String type = new String(b, pos + 4, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
                if (len == 1) {
                    len = Jumbf.u64(b, pos + 8);
                }
                if (type.equals("mdat")) {
                    return pos;
                }
                pos += (int) len;
            }
            throw new IllegalArgumentException("no mdat");
        }
    }
}
