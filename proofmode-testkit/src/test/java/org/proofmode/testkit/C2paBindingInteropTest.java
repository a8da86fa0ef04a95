// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paStatus;
import org.proofmode.c2pa.ValidationState;

/**
 * Hard bindings of files written by others (samples/c2pa-conformance, read in place), intact and
 * damaged, read by us and by the reference validator (c2pa-rs as WebAssembly): both must agree.
 */
class C2paBindingInteropTest {
    @TempDir
    static Path work;

    private static Path sample(String name) {
        return Samples.file("c2pa-conformance/" + name);
    }

    private static C2paReport ours(Path p) throws Exception {
        return new C2paReader(List.of(), List.of()).read(p).orElseThrow();
    }

    private static Path damaged(String name, int offset) throws Exception {
        byte[] b = Files.readAllBytes(sample(name));
        b[offset] ^= 0x01;
        Path out = work.resolve("damaged-" + offset + "-" + name);
        Files.write(out, b);
        return out;
    }

    /** The offset of the first payload byte of the first top-level mdat box. */
    private static int mdatPayload(Path p) throws Exception {
        byte[] b = Files.readAllBytes(p);
        int pos = 0;
        while (pos + 8 <= b.length) {
            long len = ((b[pos] & 0xFFL) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
            int header = 8;
            if (len == 1) {
                len = java.nio.ByteBuffer.wrap(b, pos + 8, 8).getLong();
                header = 16;
            }
            if (new String(b, pos + 4, 4, java.nio.charset.StandardCharsets.ISO_8859_1).equals("mdat")) {
                return pos + header;
            }
            pos += (int) len;
        }
        throw new AssertionError("no mdat in " + p);
    }

    @Test
    void validate_bothValid_bmffHashesOfOthers() throws Exception {
        for (String[] f : new String[][] {{"video1.mp4", "video/mp4"}, {"legacy.mp4", "video/mp4"}, {"prmiere-firefly.mp4", "video/mp4"},
            {"trustnxt-icon-signed-v2-bmff.heic", "image/heic"}}) {
            C2paWasm.Result ref = C2paWasm.validate(sample(f[0]), f[1], Optional.empty());
            assertThat(ref.state()).as(f[0]).isEqualTo("Valid");
            assertThat(ref.success()).as(f[0]).contains("assertion.bmffHash.match");
            C2paReport r = ours(sample(f[0]));
            assertThat(r.state()).as(f[0]).isEqualTo(ValidationState.VALID);
            assertThat(r.has("assertion.bmffHash.match")).as(f[0]).isTrue();
        }
    }

    /**
     * The binding only: the two readers' verdicts on this file differ over an ingredient manifest's
     * certificate (a pending row of c2pa-conformance-differences.tsv, checked by C2paConformanceTest).
     */
    @Test
    void validate_bothBmffHashMatch_sonyVideoWithIngredient() throws Exception {
        String name = "PTS_TRUSTED_sony_official_cawg_wdr.mp4";
        C2paWasm.Result ref = C2paWasm.validate(sample(name), "video/mp4", Optional.empty());
        assertThat(ref.success()).as(name).contains("assertion.bmffHash.match");
        assertThat(ref.failure()).as(name).noneMatch(c -> c.startsWith("assertion.bmffHash"));
        C2paReport r = ours(sample(name));
        assertThat(r.has("assertion.bmffHash.match")).as(name).isTrue();
        assertThat(r.statuses()).as(name).noneMatch(s -> s.code().startsWith("assertion.bmffHash") && s.outcome() == C2paStatus.Outcome.FAILURE);
    }

    @Test
    void validate_bothBmffHashMismatch_byteFlippedInMdat() throws Exception {
        for (String[] f : new String[][] {{"video1.mp4", "video/mp4"}, {"legacy.mp4", "video/mp4"},
            {"sony_official_teletrax.mp4", "video/mp4"}, {"trustnxt-icon-signed-v2-bmff.heic", "image/heic"}}) {
            Path p = damaged(f[0], mdatPayload(sample(f[0])) + 100);
            C2paWasm.Result ref = C2paWasm.validate(p, f[1], Optional.empty());
            assertThat(ref.state()).as(f[0]).isEqualTo("Invalid");
            assertThat(ref.failure()).as(f[0]).contains("assertion.bmffHash.mismatch");
            C2paReport r = ours(p);
            assertThat(r.state()).as(f[0]).isEqualTo(ValidationState.INVALID);
            assertThat(r.has("assertion.bmffHash.mismatch")).as(f[0]).isTrue();
        }
    }

    @Test
    void validate_bothBmffHashMismatch_initSegmentWithoutFragments() throws Exception {
        C2paWasm.Result ref = C2paWasm.validate(sample("dashinit.mp4"), "video/mp4", Optional.empty());
        assertThat(ref.failure()).contains("assertion.bmffHash.mismatch");
        assertThat(ours(sample("dashinit.mp4")).has("assertion.bmffHash.mismatch")).isTrue();
    }

    @Test
    void validate_bothDataHashMismatch_exclusionCoveringExifAndExifByteFlipped() throws Exception {
        Path original = sample("truepic-20230212-camera.jpg");
        byte[] b = Files.readAllBytes(original);
        int exif = new String(b, 0, 64, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("Exif");
        assertThat(exif).isPositive();
        for (Path p : List.of(original, damaged("truepic-20230212-camera.jpg", exif + 200))) {
            C2paWasm.Result ref = C2paWasm.validate(p, "image/jpeg", Optional.empty());
            assertThat(ref.state()).as(p.getFileName().toString()).isEqualTo("Invalid");
            assertThat(ref.failure()).as(p.getFileName().toString()).contains("assertion.dataHash.mismatch");
            C2paReport r = ours(p);
            assertThat(r.state()).isEqualTo(ValidationState.INVALID);
            assertThat(r.has("assertion.dataHash.mismatch")).isTrue();
        }
    }

    @Test
    void validate_bothValidThenMismatch_dngAndWav() throws Exception {
        for (String[] f : new String[][] {{"C.dng", "image/x-adobe-dng"}, {"sample1_signed.wav", "audio/wav"}}) {
            C2paWasm.Result ref = C2paWasm.validate(sample(f[0]), f[1], Optional.empty());
            assertThat(ref.state()).as(f[0]).isEqualTo("Valid");
            assertThat(ours(sample(f[0])).state()).as(f[0]).isEqualTo(ValidationState.VALID);
            Path p = damaged(f[0], (int) (Files.size(sample(f[0])) / 2));
            C2paWasm.Result bad = C2paWasm.validate(p, f[1], Optional.empty());
            assertThat(bad.failure()).as(f[0]).contains("assertion.dataHash.mismatch");
            assertThat(ours(p).has("assertion.dataHash.mismatch")).as(f[0]).isTrue();
        }
    }
}
