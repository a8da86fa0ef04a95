// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * FFmpeg as tests use it, the system's own (the test fails if it is missing): making clips and recordings,
 * and the frame and sample hashes a skeptic computes with it, which ours must equal.
 */
public final class Ffmpeg {
    private static final Duration TOOL_TIME = Duration.ofMinutes(3);

    private Ffmpeg() {}

    /** A frame hash as the skeptic's pipeline gives it, and how many frame digests went into it. */
    public record FrameHash(String sha256, int frames) {}

    /**
     * Runs {@code ffmpeg -v error -y ARGS OUT}.
     *
     * @return {@code out}
     */
    public static Path make(Path out, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTool.require("ffmpeg").toString(), "-v", "error", "-y"));
        cmd.addAll(List.of(args));
        cmd.add(out.toString());
        ProcessResult r = ExternalTool.run(cmd, Map.of(), TOOL_TIME);
        if (!r.succeeded()) {
            fail(r.describe());
        }
        return out;
    }

    /**
     * {@code Video.FrameHash} as the README tells a skeptic to compute it: {@code ffmpeg -i FILE -map 0:v:0
     * -f framehash -hash sha256 - | grep -v '^#' | cut -d, -f6 | tr -d ' ' | xxd -r -p | sha256sum}.
     */
    public static FrameHash skepticsFrameHash(Path file) {
        ExternalTool.require("ffmpeg");
        ExternalTool.require("xxd");
        ProcessResult r = ExternalTool.run(List.of("bash", "-c", "set -o pipefail; ffmpeg -v error -i \"$1\""
                + " -map 0:v:0 -f framehash -hash sha256 - | grep -v '^#' | cut -d, -f6 | tr -d ' ' | tee /dev/stderr"
                + " | xxd -r -p | sha256sum | cut -d' ' -f1", "bash", file.toString()), Map.of(), TOOL_TIME);
        if (!r.succeeded()) {
            fail(r.describe());
        }
        long frames = r.stderr().lines().filter(l -> l.matches("[0-9a-f]{64}")).count();
        return new FrameHash(r.stdout().strip(), (int) frames);
    }

    /** What {@code ffmpeg -i FILE -map 0:a:0 -f hash -hash sha256 -} prints, without its {@code SHA256=}. */
    public static String sampleHash(Path file) {
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("ffmpeg").toString(), "-v", "error", "-i", file.toString(),
                "-map", "0:a:0", "-f", "hash", "-hash", "sha256", "-"), Map.of(), TOOL_TIME);
        if (!r.succeeded()) {
            fail(r.describe());
        }
        assertTrue(r.stdout().startsWith("SHA256="), () -> "ffmpeg printed no sample hash: " + r.describe());
        return r.stdout().strip().substring("SHA256=".length());
    }
}
