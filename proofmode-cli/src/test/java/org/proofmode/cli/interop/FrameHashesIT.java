// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.ProcessResult;

/**
 * The packaged command proving a video: with ffmpeg on {@code PATH} the proof records the frame hash a
 * skeptic recomputes with ffmpeg alone; without it, the proof is made all the same, with one clear
 * warning, and verifies.
 */
class FrameHashesIT {
    @TempDir
    Path dir;

    private Path video() {
        return Ffmpeg.make(dir.resolve("clip.mp4"), "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=2", "-c:v", "libx264",
                "-pix_fmt", "yuv420p");
    }

    @Test
    void prove_recordsTheFrameHashThatFfmpegGives() {
        Path clip = video();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        ProcessResult inspect = pm.run("inspect", clip.toString());
        assertThat(inspect.succeeded()).as(inspect.describe()).isTrue();
        assertThat(inspect.stdout()).contains("Video.FrameHash:").contains(Ffmpeg.skepticsFrameHash(clip).sha256())
                .containsPattern("(?m)^Video\\.FrameCount: +50$");
    }

    @Test
    void prove_withoutFfmpeg_warnsOnce_andTheProofVerifies() throws Exception {
        Path clip = video();
        Path emptyPath = Files.createDirectories(dir.resolve("no-tools"));
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("PATH", emptyPath.toString());
        ProcessResult proved = pm.run("prove", clip.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        String sha = proved.stdout().strip().split("\\s+")[0];
        String record = Files.readString(pm.proofFolder(sha).resolve(sha + ".proof.json"));
        assertThat(record).contains("\"Warning.Video\"").contains("ffmpeg and ffprobe not found on PATH").doesNotContain("Video.FrameHash");
        assertThat(record.split("ffmpeg and ffprobe not found", -1)).as("one warning").hasSize(2);
        assertThat(pm.proofFolder(sha).resolve(sha + ".frames")).doesNotExist();
        ProcessResult verified = pm.run("verify", clip.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("TRUSTED");
    }
}
