// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.verify.CheckCodes;

/**
 * {@code proofmode compare} on media made here with ffmpeg: a re-muxed copy is the same content, an
 * excerpt cut on key frames is found in its proved original (from the proof's frame list alone), a
 * re-encoded or other video differs, and images are compared by pixels and perceptual hash.
 */
class CompareCommandTest {
    @TempDir
    static Path dir;

    static Path original;
    static Path other;
    static Cli cli;

    @BeforeAll
    static void makeVideos() {
        ExternalTool.require("ffprobe");
        // 4 s at 25 fps, a key frame every 10 frames, with a tone: 100 frames.
        original = ffmpeg("original.mp4", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=4", "-f", "lavfi", "-i",
                "sine=duration=4", "-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest");
        other = ffmpeg("other.mp4", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=4", "-c:v", "libx264",
                "-pix_fmt", "yuv420p");
        cli = new Cli(dir.resolve("home")).env("PROOFMODE_PASSPHRASE", "compare test");
    }

    private static Path ffmpeg(String name, String... args) {
        return Ffmpeg.make(dir.resolve(name), args);
    }

    @Test
    void remuxedCopy_isTheSameContent() {
        Path mov = ffmpeg("remuxed.mov", "-i", original.toString(), "-c", "copy", "-metadata", "title=forwarded");
        Cli.Result r = cli.run("compare", original.toString(), mov.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains(CheckCodes.COMPARE_FRAMES_IDENTICAL).contains(CheckCodes.COMPARE_SAMPLES_IDENTICAL)
                .endsWith("PASS  same content: other bytes, the same decoded frames, samples or pixels\n");

        // Into Matroska the frames stay, but AAC's encoder delay is kept another way: the decoded samples
        // differ, and compare says so rather than calling the copy the same.
        Path mkv = ffmpeg("remuxed.mkv", "-i", original.toString(), "-c", "copy");
        Cli.Result m = cli.run("compare", original.toString(), mkv.toString());
        assertThat(m.exit()).isEqualTo(3);
        assertThat(m.out()).contains(CheckCodes.COMPARE_FRAMES_IDENTICAL).contains("FAIL  " + CheckCodes.COMPARE_SAMPLES_DIFFERENT)
                .endsWith("FAIL  different\n");

        Cli.Result self = cli.run("compare", original.toString(), original.toString());
        assertThat(self.exit()).isZero();
        assertThat(self.out()).contains("PASS  " + CheckCodes.COMPARE_BYTES_IDENTICAL).endsWith("PASS  same bytes\n");
    }

    @Test
    void excerpt_isFoundInTheProvedOriginal_fromItsFrameListAlone() throws Exception {
        Cli.Result proved = cli.run("prove", original.toString());
        assertThat(proved.exit()).as(proved.err()).isZero();
        String hash = proved.out().strip().split("\\s+")[0];
        Path excerpt = ffmpeg("excerpt.mkv", "-ss", "2", "-i", original.toString(), "-t", "1", "-c", "copy", "-an");
        // The original is gone: only its proof remains.
        Path moved = Files.move(original, dir.resolve("original-elsewhere.mp4"));
        try {
            Cli.Result r = cli.run("compare", hash, excerpt.toString());
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains(CheckCodes.COMPARE_FRAMES_EXCERPT).contains("proof, TRUSTED").contains("excerpt");
            // (the report shortens hashes: first and last 8 digits)
            assertThat(r.out()).containsPattern("are frames 5[0-9] to [0-9]+ of the media of " + hash.substring(0, 8) + "…"
                    + hash.substring(56) + "'s proof \\([0-9.]+ s to [0-9.]+ s, of 100 frames\\)");
        } finally {
            Files.move(moved, original);
        }
    }

    @Test
    void verifyOriginal_ofAProvedExcerpt_saysWhichFramesOfTheOriginalItIs() {
        Path excerpt = ffmpeg("excerpt-proved.mkv", "-ss", "1", "-i", original.toString(), "-t", "1", "-c", "copy");
        assertThat(cli.run("prove", excerpt.toString()).exit()).isZero();
        Cli.Result v = cli.run("verify", "--original", original.toString(), excerpt.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  " + CheckCodes.COMPARE_FRAMES_EXCERPT).contains("TRUSTED");

        Cli.Result other = cli.run("verify", "--original", CompareCommandTest.other.toString(), excerpt.toString());
        assertThat(other.exit()).isEqualTo(3);
        assertThat(other.out()).contains("FAIL  " + CheckCodes.COMPARE_FRAMES_DIFFERENT);
    }

    @Test
    void otherVideo_differs_exit3_reencodedCopyIsClose_exit2() {
        Cli.Result r = cli.run("compare", original.toString(), other.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).contains(CheckCodes.COMPARE_FRAMES_DIFFERENT).contains("the first to differ is frame 0")
                .contains(CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT).contains("another video").endsWith("different\n");

        // Re-encoded at a low quality: other frames, the same samples, and one frame per second still close.
        Path reencoded = ffmpeg("reencoded.mp4", "-i", original.toString(), "-c:v", "libx264", "-crf", "40", "-c:a", "copy");
        Cli.Result re = cli.run("compare", original.toString(), reencoded.toString());
        assertThat(re.exit()).isEqualTo(2);
        assertThat(re.out()).contains("INFO  " + CheckCodes.COMPARE_FRAMES_DIFFERENT).contains(CheckCodes.COMPARE_SAMPLES_IDENTICAL)
                .contains("WARN  " + CheckCodes.COMPARE_PERCEPTUAL_CLOSE).contains("4 of 4 within 10 of 64 bits")
                .endsWith("WARN  perceptually close, not the same: other pixels or frames that look alike (re-encoded, resized, cut or"
                        + " edited); nothing shows what was changed\n").doesNotContain("FAIL");
    }

    /** What a messenger does: resizes, re-encodes at another frame rate and cuts; the proof still finds the seconds. */
    @Test
    void reencodedResizedExcerpt_isSimilarToTheProvedOriginal_atItsSeconds() {
        Cli.Result proved = cli.run("prove", "--force", original.toString());
        assertThat(proved.exit()).as(proved.err()).isZero();
        String hash = proved.out().strip().split("\\s+")[0];
        Path cut = ffmpeg("forwarded.mp4", "-ss", "1", "-i", original.toString(), "-t", "2", "-vf", "scale=96:72", "-r", "30",
                "-c:v", "libx264", "-crf", "32", "-an");
        Cli.Result r = cli.run("compare", hash, cut.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.out()).contains(CheckCodes.COMPARE_PERCEPTUAL_CLOSE).contains("2 of 2 within")
                .contains("seconds 1 to 2 of " + hash.substring(0, 8)).contains("WARN  perceptually close");
    }

    @Test
    void images_samePixelsAndPerceptuallyClose() throws Exception {
        Path photo = OwnMedia.examplePhoto();
        // Bytes after the end of the image: other bytes, the same pixels.
        byte[] bytes = Files.readAllBytes(photo);
        Path tailed = dir.resolve("tailed.jpg");
        Files.write(tailed, bytes);
        Files.write(tailed, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        Cli.Result same = cli.run("compare", photo.toString(), tailed.toString());
        assertThat(same.exit()).as(same.out() + same.err()).isZero();
        assertThat(same.out()).contains(CheckCodes.COMPARE_PIXELS_IDENTICAL);

        Path smaller = ffmpeg("smaller.jpg", "-i", photo.toString(), "-vf", "scale=iw/2:-1", "-q:v", "5");
        Cli.Result close = cli.run("compare", photo.toString(), smaller.toString());
        assertThat(close.exit()).isEqualTo(2);
        assertThat(close.out()).contains("WARN  " + CheckCodes.COMPARE_PERCEPTUAL_CLOSE).contains("WARN  perceptually close, not the same")
                .doesNotContain("FAIL");
    }

    @Test
    void badInput_oneLineErrors() {
        Cli.Result missing = cli.run("compare", original.toString(), dir.resolve("nope.mp4").toString());
        assertThat(missing.exit()).isEqualTo(61);
        assertThat(missing.err().strip()).doesNotContain("\n").contains("no such file");

        Cli.Result unknownHash = cli.run("compare", "0".repeat(64), original.toString());
        assertThat(unknownHash.exit()).isEqualTo(61);

        Cli.Result videoAndPhoto = cli.run("compare", original.toString(), OwnMedia.examplePhoto().toString());
        assertThat(videoAndPhoto.exit()).isEqualTo(13);
        assertThat(videoAndPhoto.out()).contains("WARN  " + CheckCodes.COMPARE_UNCOMPARABLE).endsWith("WARN  uncomparable: other bytes,"
                + " and what both have does not show how they relate\n");
    }
}
