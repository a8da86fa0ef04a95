// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.Tamper;
import org.proofmode.verify.CheckCodes;

/**
 * {@code proofmode compare}'s outcomes on clips made here by ffmpeg, each with its one status and exit
 * code: a true excerpt (cut without re-encoding, its sound the original's), the same excerpt re-encoded
 * (perceptually close), a splice of foreign frames, a re-dub (the excerpt's frames with other sound), a
 * reordering; a tampered bundle; {@code --json}.
 */
class CompareOutcomesTest {
    @TempDir
    static Path dir;

    static Path original;
    static Cli cli;

    @BeforeAll
    static void makeClips() {
        ExternalTool.require("ffprobe");
        // 8 s at 25 fps, a key frame every 10 frames (0.4 s), with a tone that beeps every second.
        original = ffmpeg("original.mp4", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=8", "-f", "lavfi", "-i",
                "sine=frequency=440:beep_factor=4:duration=8", "-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p", "-c:a", "aac",
                "-shortest");
        cli = new Cli(dir.resolve("home")).env("PROOFMODE_PASSPHRASE", "compare outcomes");
    }

    private static Path ffmpeg(String name, String... args) {
        return Ffmpeg.make(dir.resolve(name), args);
    }

    private static Cli.Result compare(Path a, Path b) {
        return cli.run("compare", a.toString(), b.toString());
    }

    /** The last line: the outcome, with its status. */
    private static String outcome(Cli.Result r) {
        String[] lines = r.out().strip().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void excerpt_cutWithoutReencoding_withTheOriginalsSound_exit0() {
        Path excerpt = ffmpeg("excerpt.mp4", "-ss", "2", "-i", original.toString(), "-t", "3", "-c", "copy");
        Cli.Result r = compare(original, excerpt);
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS  " + CheckCodes.COMPARE_FRAMES_EXCERPT).contains("are frames 50 to ")
                .contains("PASS  " + CheckCodes.COMPARE_AUDIO_SAME).contains("its sound is " + original + "'s from 2.000 s")
                .doesNotContain("FAIL").doesNotContain("WARN");
        assertThat(outcome(r)).isEqualTo("PASS  excerpt: one is a contiguous run of the other's frames, with its audio where both have audio");
        // Either way round.
        assertThat(compare(excerpt, original).exit()).isZero();
    }

    @Test
    void excerpt_reencoded_isPerceptuallyClose_exit2() {
        Path excerpt = ffmpeg("excerpt-reencoded.mp4", "-ss", "2", "-i", original.toString(), "-t", "3", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-c:a", "aac");
        Cli.Result r = compare(original, excerpt);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.out()).contains("WARN  " + CheckCodes.COMPARE_PERCEPTUAL_CLOSE).contains("seconds 2 to 4 of " + original)
                .doesNotContain("FAIL").doesNotContain("PASS");
        assertThat(outcome(r)).startsWith("WARN  perceptually close, not the same");
    }

    /** Three segments joined without re-encoding: the original's seconds 2 to 3.2, a foreign 0.4 s, seconds 3.2 to 4.8. */
    @Test
    void splice_ofForeignFrames_isDifferent_andSaysWhichFrames_exit3() throws Exception {
        ffmpeg("s1.mp4", "-ss", "2", "-i", original.toString(), "-t", "1.2", "-an", "-c", "copy");
        ffmpeg("s2.mp4", "-ss", "3.2", "-i", original.toString(), "-t", "1.6", "-an", "-c", "copy");
        ffmpeg("foreign.mp4", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=0.4", "-c:v", "libx264", "-g", "10",
                "-pix_fmt", "yuv420p");
        Path list = Files.writeString(dir.resolve("splice.txt"), "file s1.mp4\nfile foreign.mp4\nfile s2.mp4\n");
        Path splice = ffmpeg("splice.mp4", "-f", "concat", "-i", list.toString(), "-c", "copy");
        Cli.Result r = compare(original, splice);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).contains("FAIL  " + CheckCodes.COMPARE_FRAMES_SPLICED).containsPattern("10 of its [0-9]+ frames are not"
                + " [^ ]*original.mp4's \\(frames [0-9]+ to [0-9]+\\)").contains("2 runs of " + original + "'s frames")
                .doesNotContain(CheckCodes.COMPARE_FRAMES_EXCERPT).doesNotContain(CheckCodes.COMPARE_PERCEPTUAL_CLOSE);
        assertThat(outcome(r)).isEqualTo("FAIL  different");

        Path reordered = Files.writeString(dir.resolve("reorder.txt"), "file s2.mp4\nfile s1.mp4\n");
        Cli.Result o = compare(original, ffmpeg("reordered.mp4", "-f", "concat", "-i", reordered.toString(), "-c", "copy"));
        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(3);
        assertThat(o.out()).contains("FAIL  " + CheckCodes.COMPARE_FRAMES_SPLICED).contains("are all " + original + "'s")
                .contains("out of order");
        assertThat(outcome(o)).isEqualTo("FAIL  different");
    }

    @Test
    void redub_theExcerptsFramesWithOtherSound_isDifferent_exit3() {
        Path excerpt = ffmpeg("excerpt-for-redub.mp4", "-ss", "2", "-i", original.toString(), "-t", "3", "-c", "copy");
        Path redub = ffmpeg("redub.mp4", "-i", excerpt.toString(), "-f", "lavfi", "-i", "sine=frequency=1000:duration=3", "-map",
                "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-shortest");
        Cli.Result r = compare(original, redub);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).contains(CheckCodes.COMPARE_FRAMES_EXCERPT).contains("FAIL  " + CheckCodes.COMPARE_AUDIO_DIFFERENT)
                .contains("its sound is not " + original + "'s at the matching times");
        assertThat(outcome(r)).isEqualTo("FAIL  different");

        // Sound added to frames that had none.
        Path silent = ffmpeg("silent.mp4", "-i", original.toString(), "-an", "-c", "copy");
        Path dubbed = ffmpeg("dubbed.mp4", "-i", excerpt.toString(), "-f", "lavfi", "-i", "sine=frequency=1000:duration=3", "-map",
                "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-shortest");
        Cli.Result added = compare(silent, dubbed);
        assertThat(added.exit()).isEqualTo(3);
        assertThat(added.out()).contains("FAIL  " + CheckCodes.COMPARE_AUDIO_DIFFERENT).contains("the sound was added");

        // Against the original's proof, which hashes its sound whole: never an excerpt, uncomparable.
        Cli.Result proved = cli.run("prove", original.toString());
        assertThat(proved.exit()).as(proved.err()).isZero();
        String hash = proved.out().strip().split("\\s+")[0];
        Cli.Result againstProof = cli.run("compare", hash, redub.toString());
        assertThat(againstProof.exit()).as(againstProof.out()).isEqualTo(13);
        assertThat(againstProof.out()).contains("WARN  " + CheckCodes.COMPARE_AUDIO_UNCHECKED).doesNotContain("FAIL");
        assertThat(outcome(againstProof)).startsWith("WARN  uncomparable");
        // The same frames without sound are an excerpt of the proof.
        Path mute = ffmpeg("redub-mute.mp4", "-i", redub.toString(), "-an", "-c", "copy");
        assertThat(cli.run("compare", hash, mute.toString()).exit()).isZero();
    }

    @Test
    void json_isOneObject_withTheOutcomeItsExitCodeAndTheChecks() throws Exception {
        Path excerpt = ffmpeg("excerpt-json.mp4", "-ss", "2", "-i", original.toString(), "-t", "3", "-c", "copy");
        Cli.Result r = cli.run("compare", "--json", original.toString(), excerpt.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out().strip()).doesNotContain("\n");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.get("relation").asText()).isEqualTo("EXCERPT");
        assertThat(doc.get("status").asText()).isEqualTo("PASS");
        assertThat(doc.get("outcome").asText()).startsWith("excerpt: ");
        assertThat(doc.get("exitCode").asInt()).isZero();
        assertThat(doc.get("sides").get(1).get("name").asText()).isEqualTo(excerpt.toString());
        List<String> codes = new ArrayList<>();
        doc.get("checks").forEach(c -> codes.add(c.get("code").asText()));
        assertThat(codes).containsExactly(CheckCodes.COMPARE_FRAMES_EXCERPT, CheckCodes.COMPARE_AUDIO_SAME);

        Cli.Result other = cli.run("compare", "--json", original.toString(), OwnMedia.examplePhoto().toString());
        JsonNode o = new ObjectMapper().readTree(other.out());
        assertThat(other.exit()).isEqualTo(13);
        assertThat(o.get("relation").asText()).isEqualTo("UNCOMPARABLE");
        assertThat(o.get("exitCode").asInt()).isEqualTo(13);
    }

    /** A photo against a bundle whose proof was changed: never a "same bytes" PASS, and says what was compared. */
    @Test
    void tamperedBundle_isProofInvalid_andItsSameBytesOnlyInformation_exit3() throws Exception {
        Path zip = Cli.othersBundle(dir, "tamper", 0);
        Path photo = dir.resolve("media-tamper").resolve("tamper0.jpg");
        Map<String, byte[]> entries = Tamper.readZip(zip);
        String json = entries.keySet().stream().filter(n -> n.endsWith(".proof.json")).findFirst().orElseThrow();
        String changed = new String(entries.get(json), StandardCharsets.UTF_8).replaceFirst("\"File.Size\" *: *\"", "\"File.Size\":\"9");
        Path tampered = dir.resolve("tampered.zip");
        Tamper.replaceEntry(zip, tampered, json, changed.getBytes(StandardCharsets.UTF_8));

        Cli.Result r = compare(photo, tampered);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).contains("FAIL  " + CheckCodes.COMPARE_PROOF_INVALID).contains("INFO  " + CheckCodes.COMPARE_BYTES_IDENTICAL)
                .contains("the same bytes as " + photo).contains("which " + tampered + "'s proof names")
                .doesNotContain("PASS");
        assertThat(outcome(r)).isEqualTo("FAIL  proof invalid: a proof does not verify, so what it records says nothing about the media");

        // The untouched bundle: the same bytes, PASS.
        Cli.Result good = compare(photo, zip);
        assertThat(good.exit()).as(good.out()).isZero();
        assertThat(outcome(good)).isEqualTo("PASS  same bytes");
    }

    @Test
    void help_listsEachOutcomeWithItsStatusAndExitCode() {
        Cli.Result r = cli.run("compare", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Outcomes and exit codes:", "   0  PASS  same bytes, same content, or excerpt",
                "   2  WARN  perceptually close, not the same", "   3  FAIL  different, or proof invalid", "  13  WARN  uncomparable",
                "--json");
        for (org.proofmode.verify.MediaComparison.Relation relation : org.proofmode.verify.MediaComparison.Relation.values()) {
            int exit = CompareCommand.exitCode(relation);
            assertThat(r.out()).as(relation.name()).containsPattern("(?m)^ +" + exit + "  " + relation.status() + "  ");
        }
    }
}
