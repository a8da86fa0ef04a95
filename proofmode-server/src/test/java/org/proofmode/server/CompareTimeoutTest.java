// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;

/**
 * {@code POST /api/v1/compare} that runs out of time answers 503 and stops its work: no FFmpeg it started
 * is left decoding after the answer.
 */
class CompareTimeoutTest {
    @TempDir
    Path tmp;

    /** The ffmpeg processes this JVM (the server runs in it) started that still run. */
    private static List<ProcessHandle> ffmpegChildren() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/ffmpeg")).orElse(false)).toList();
    }

    @Test
    void compare_outOfTime_answers503_andLeavesNoFfmpegRunning() throws Exception {
        ExternalTool.require("ffprobe");
        // 20 s of 720p: several seconds of decoding for each side, far more than the two seconds allowed.
        Path video = Ffmpeg.make(tmp.resolve("long.mp4"), "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=20", "-c:v",
                "libx264", "-preset", "ultrafast", "-crf", "40", "-pix_fmt", "yuv420p");
        Path copy = Ffmpeg.make(tmp.resolve("copy.mkv"), "-i", video.toString(), "-c", "copy", "-metadata", "title=copy");
        ServerConfig config = ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0)
                .withBounds(64L << 20, BundleLimits.DEFAULT, Duration.ofSeconds(2), 1000);
        try (TestServer srv = TestServer.start(config)) {
            String token = srv.token("desk");
            assertThat(ffmpegChildren()).isEmpty();
            // Watches, while the request runs, that the comparison did start FFmpeg.
            AtomicBoolean seen = new AtomicBoolean();
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted() && !seen.get()) {
                    seen.set(!ffmpegChildren().isEmpty());
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            watcher.start();
            HttpResponse<String> r = srv.postParts("/api/v1/compare", Map.of("a", Map.entry("long.mp4", Files.readAllBytes(video)),
                    "b", Map.entry("copy.mkv", Files.readAllBytes(copy))), Optional.of(token));
            watcher.interrupt();
            watcher.join();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            assertThat(r.body()).contains("comparing took longer than 2 s");
            assertThat(seen).as("ffmpeg ran before the answer").isTrue();
            // The work stops with the answer: within two seconds no ffmpeg of the server's is left.
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (!ffmpegChildren().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(ffmpegChildren()).isEmpty();
        }
    }
}
