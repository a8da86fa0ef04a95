// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.media.MediaKind;

class MediaComparisonTest {
    /** Frames whose digests are the given small numbers (repeated into 32 bytes), pts = index, time base 1/10. */
    private static Frames frames(int... ids) {
        byte[] d = new byte[32 * ids.length];
        long[] pts = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            Arrays.fill(d, 32 * i, 32 * i + 32, (byte) ids[i]);
            pts[i] = i;
        }
        return new Frames("1/10", pts, d);
    }

    private static MediaComparison.Side video(String name, Frames f) {
        return new MediaComparison.Side(name, Optional.of(MediaKind.VIDEO), Optional.of(name + "-sha"), List.of(),
                Optional.empty(), Optional.of(f.frameHash()), Optional.of(f), Optional.empty(), Optional.empty());
    }

    @Test
    void longestRun_findsTheRun_evenWithRepeatedFrames() {
        Frames whole = frames(1, 2, 2, 2, 3, 4, 5, 6, 7, 8);
        Frames part = frames(2, 3, 4, 5);
        assertThat(MediaComparison.longestRun(whole, part)).containsExactly(3, 0, 4);
        assertThat(MediaComparison.longestRun(whole, frames(9, 10))[2]).isZero();
    }

    @Test
    void compare_sameFrames_excerpt_andFirstDifference() {
        Frames a = frames(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(MediaComparison.compare(video("a", a), video("b", frames(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))).relation())
                .isEqualTo(MediaComparison.Relation.SAME_CONTENT);

        MediaComparison.Result excerpt = MediaComparison.compare(video("a", a), video("b", frames(4, 5, 6, 7)));
        assertThat(excerpt.relation()).isEqualTo(MediaComparison.Relation.EXCERPT);
        assertThat(excerpt.checks()).singleElement().satisfies(c -> {
            assertThat(c.code()).isEqualTo(CheckCodes.COMPARE_FRAMES_EXCERPT);
            assertThat(c.message()).contains("frames 3 to 6 of a (0.300 s to 0.600 s, of 10 frames)");
        });
        // The whole inside the part is found the other way round too.
        assertThat(MediaComparison.compare(video("b", frames(4, 5, 6, 7)), video("a", a)).relation())
                .isEqualTo(MediaComparison.Relation.EXCERPT);

        MediaComparison.Result changed = MediaComparison.compare(video("a", a), video("b", frames(1, 2, 3, 99, 5, 6, 7, 8, 9, 10)));
        assertThat(changed.relation()).isEqualTo(MediaComparison.Relation.DIFFERENT);
        assertThat(changed.checks().get(0).code()).isEqualTo(CheckCodes.COMPARE_FRAMES_SPLICED);
        assertThat(changed.checks().get(0).message()).contains("1 of its 10 frames are not a's (frame 3)");
        MediaComparison.Result other = MediaComparison.compare(video("a", a), video("b", frames(11, 12, 13, 14, 15, 16, 17, 18, 19, 20)));
        assertThat(other.checks().get(0).message()).contains("the first to differ is frame 0");
    }

    @Test
    void compare_anInvalidProof_isProofInvalid_andWhatItRecordsIsOnlyInformation() {
        Frames a = frames(1, 2, 3);
        MediaComparison.Side proof = new MediaComparison.Side("p", Optional.of(MediaKind.VIDEO), Optional.of("x"), List.of(),
                Optional.empty(), Optional.of(a.frameHash()), Optional.of(a), Optional.empty(), Optional.of(Verdict.INVALID));
        MediaComparison.Result r = MediaComparison.compare(proof, video("b", frames(1, 2, 3)));
        assertThat(r.relation()).isEqualTo(MediaComparison.Relation.PROOF_INVALID);
        assertThat(r.relation().status()).isEqualTo(Status.FAIL);
        assertThat(r.checks()).extracting(Check::code).containsExactly(CheckCodes.COMPARE_PROOF_INVALID, CheckCodes.COMPARE_FRAMES_IDENTICAL);
        assertThat(r.checks()).extracting(Check::status).containsExactly(Status.FAIL, Status.INFO);

        // The same bytes as the media an invalid proof names: information, never a PASS.
        MediaComparison.Side sameBytes = new MediaComparison.Side("file", Optional.of(MediaKind.VIDEO), Optional.of("x"), List.of(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        MediaComparison.Result bytes = MediaComparison.compare(sameBytes, proof);
        assertThat(bytes.relation()).isEqualTo(MediaComparison.Relation.PROOF_INVALID);
        assertThat(bytes.checks()).filteredOn(c -> c.code().equals(CheckCodes.COMPARE_BYTES_IDENTICAL)).singleElement()
                .satisfies(c -> {
                    assertThat(c.status()).isEqualTo(Status.INFO);
                    assertThat(c.message()).isEqualTo("the same bytes as file (SHA-256 x), which p's proof names");
                });
    }

    /** Every outcome's status, and no check that says worse than the outcome (unless a proof is invalid). */
    @Test
    void compare_eachOutcomeHasOneStatus_noCheckContradictsIt() {
        assertThat(MediaComparison.Relation.SAME_BYTES.status()).isEqualTo(Status.PASS);
        assertThat(MediaComparison.Relation.SAME_CONTENT.status()).isEqualTo(Status.PASS);
        assertThat(MediaComparison.Relation.EXCERPT.status()).isEqualTo(Status.PASS);
        assertThat(MediaComparison.Relation.SIMILAR.status()).isEqualTo(Status.WARN);
        assertThat(MediaComparison.Relation.UNCOMPARABLE.status()).isEqualTo(Status.WARN);
        assertThat(MediaComparison.Relation.DIFFERENT.status()).isEqualTo(Status.FAIL);
        assertThat(MediaComparison.Relation.PROOF_INVALID.status()).isEqualTo(Status.FAIL);
        Frames a = frames(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        List<MediaComparison.Result> results = List.of(MediaComparison.compare(video("a", a), video("b", frames(4, 5, 6, 7))),
                MediaComparison.compare(video("a", a), video("b", frames(1, 2, 3, 99, 5, 6, 7, 8, 9, 10))),
                MediaComparison.compare(proofOfImage("x", "p", 0L), proofOfImage("y", "q", 1L)),
                MediaComparison.compare(proofOfImage("x", "p", 0L), video("b", a)));
        assertThat(results).extracting(MediaComparison.Result::relation).containsExactly(MediaComparison.Relation.EXCERPT,
                MediaComparison.Relation.DIFFERENT, MediaComparison.Relation.SIMILAR, MediaComparison.Relation.UNCOMPARABLE);
        for (MediaComparison.Result r : results) {
            Status worst = r.relation().status();
            assertThat(r.checks()).as(r.relation().name()).allSatisfy(c -> assertThat(rank(c.status())).isLessThanOrEqualTo(rank(worst)));
        }
    }

    private static int rank(Status s) {
        return s == Status.FAIL ? 2 : s == Status.WARN ? 1 : 0;
    }

    @Test
    void compare_excerpt_allowsAFewFramesDecodedOtherwiseAtItsEnds_notMore() {
        Frames whole = frames(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50);
        // 40 frames of the whole, with 4 at the end that decode otherwise (they referred to frames after the cut).
        int[] cut = new int[44];
        for (int i = 0; i < 40; i++) {
            cut[i] = 5 + i;
        }
        cut[40] = 201;
        cut[41] = 202;
        cut[42] = 203;
        cut[43] = 204;
        MediaComparison.Result r = MediaComparison.compare(video("a", whole), video("b", frames(cut)));
        assertThat(r.relation()).isEqualTo(MediaComparison.Relation.EXCERPT);
        assertThat(r.checks().get(0).message()).contains("the 4 at its ends decode otherwise");

        // Foreign frames in the middle: 40 frames of the whole with 4 others after frame 20, a splice.
        int[] spliced = new int[44];
        for (int i = 0, j = 0; i < 44; i++) {
            spliced[i] = i >= 20 && i < 24 ? 100 + i : 5 + j++;
        }
        MediaComparison.Result s = MediaComparison.compare(video("a", whole), video("b", frames(spliced)));
        assertThat(s.relation()).isEqualTo(MediaComparison.Relation.DIFFERENT);
        assertThat(s.checks()).singleElement().satisfies(c -> {
            assertThat(c.code()).isEqualTo(CheckCodes.COMPARE_FRAMES_SPLICED);
            assertThat(c.status()).isEqualTo(Status.FAIL);
            assertThat(c.message()).contains("4 of its 44 frames are not a's (frames 20 to 23)")
                    .contains("frames 0 to 19 are its frames 4 to 23 (from 0.400 s); 24 to 43 are its frames 24 to 43 (from 2.400 s)");
        });

        // The same frames in another order.
        int[] reordered = new int[40];
        for (int i = 0; i < 40; i++) {
            reordered[i] = i < 20 ? 25 + i : 5 + i - 20;
        }
        MediaComparison.Result o = MediaComparison.compare(video("a", whole), video("b", frames(reordered)));
        assertThat(o.relation()).isEqualTo(MediaComparison.Relation.DIFFERENT);
        assertThat(o.checks().get(0).message()).contains("its 40 frames are all a's").contains("out of order");
    }

    private static MediaComparison.Side proofOfImage(String name, String pixelHash, long perceptual) {
        return new MediaComparison.Side(name, Optional.of(MediaKind.IMAGE), Optional.of(name + "-sha"), List.of(pixelHash),
                Optional.of(perceptual), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(Verdict.TRUSTED));
    }

    /** A proof made before pixel hashes had versions holds version 1 for a JPEG; a file is hashed in both. */
    @Test
    void compare_matchesAVersion1Proof_withAFileHashedInBothVersions() throws Exception {
        Path photo = TestHomes.examplePhoto();
        List<String> notes = new ArrayList<>();
        MediaComparison.Side file = MediaComparison.ofFile(photo, "photo.jpg", notes);
        String v1 = ImageHashes.pixelHashAs(photo, "").orElseThrow();
        ImageHashes.Result now = ImageHashes.of(photo);

        assertThat(file.pixelHashes()).containsExactly(now.pixelHash(), v1);
        assertThat(now.pixelHash()).startsWith(ImageHashes.V2);
        assertThat(MediaComparison.compare(proofOfImage("old proof", v1, now.perceptualHash()), file).relation())
                .isEqualTo(MediaComparison.Relation.SAME_CONTENT);
        assertThat(MediaComparison.compare(proofOfImage("new proof", now.pixelHash(), now.perceptualHash()), file).relation())
                .isEqualTo(MediaComparison.Relation.SAME_CONTENT);

        // Two proofs with different versions have no pixel hash in common: perceptual hashes decide, and say why.
        MediaComparison.Result r = MediaComparison.compare(proofOfImage("old proof", v1, now.perceptualHash()),
                proofOfImage("new proof", now.pixelHash(), now.perceptualHash()));
        assertThat(r.relation()).isEqualTo(MediaComparison.Relation.SIMILAR);
        assertThat(r.checks()).singleElement().satisfies(c -> {
            assertThat(c.code()).isEqualTo(CheckCodes.COMPARE_PERCEPTUAL_CLOSE);
            assertThat(c.message()).contains("different versions: old proof v1 and new proof v2");
        });
    }

    private static MediaComparison.Side videoWithSeconds(String name, int firstFrame, long... seconds) {
        Frames.Builder b = new Frames.Builder();
        for (int i = 0; i < 3; i++) {
            byte[] d = new byte[32];
            Arrays.fill(d, (byte) (firstFrame + i));
            b.add(i, d);
        }
        for (long s : seconds) {
            b.second(s);
        }
        return video(name, b.build("1/10"));
    }

    /** Other frames: one frame per second decides, at the best alignment of whole seconds. */
    @Test
    void compare_otherFrames_perceptuallyClose_atTheBestAlignment_orAnotherVideo() {
        Random rnd = new Random(11);
        long[] whole = new long[10];
        for (int i = 0; i < whole.length; i++) {
            whole[i] = rnd.nextLong();
        }
        // Seconds 4 to 7 of the whole, each a few bits off (re-encoded), in a clip of other frames.
        long[] cut = {whole[4] ^ 0b101, whole[5] ^ 0b1, whole[6], whole[7] ^ 0b1110};
        MediaComparison.Result r = MediaComparison.compare(videoWithSeconds("a", 1, whole), videoWithSeconds("b", 50, cut));
        assertThat(r.relation()).isEqualTo(MediaComparison.Relation.SIMILAR);
        assertThat(r.checks()).extracting(Check::code).containsExactly(CheckCodes.COMPARE_FRAMES_DIFFERENT, CheckCodes.COMPARE_PERCEPTUAL_CLOSE);
        assertThat(r.checks()).extracting(Check::status).containsExactly(Status.INFO, Status.WARN);
        assertThat(r.checks().get(1).message()).contains("4 of 4 within 10 of 64 bits (seconds 4 to 7 of a against seconds 0 to 3 of b)");

        long[] unrelated = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()};
        MediaComparison.Result other = MediaComparison.compare(videoWithSeconds("a", 1, whole), videoWithSeconds("c", 50, unrelated));
        assertThat(other.relation()).isEqualTo(MediaComparison.Relation.DIFFERENT);
        assertThat(other.checks().get(1).code()).isEqualTo(CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT);
        assertThat(other.checks().get(1).message()).endsWith("another video");

        // A frame list made before per-second hashes: no perceptual check at all.
        MediaComparison.Result old = MediaComparison.compare(videoWithSeconds("a", 1), videoWithSeconds("d", 50, cut));
        assertThat(old.relation()).isEqualTo(MediaComparison.Relation.DIFFERENT);
        assertThat(old.checks()).extracting(Check::code).containsExactly(CheckCodes.COMPARE_FRAMES_DIFFERENT);
    }
}
