// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.imaging.StreamHashes;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.verify.MediaComparison;

/**
 * The work of hashing a video is bounded by the file's size, whatever its header claims: a 2 KB file
 * whose two frames are 100,000 seconds apart (FFmpeg would repeat the first into 100,000 per-second
 * frames, 100 MB of temporary file) costs what its two frames cost; a file that decodes to more frames
 * than its bytes can hold is not hashed; and FFmpeg is stopped, and its temporary file removed, when the
 * caller is interrupted.
 */
class StreamHashesBoundsTest {
    @TempDir
    Path dir;

    /** The temporary files left in the folder given to {@link StreamHashes#frames(Path, Optional, Path)}. */
    private Set<Path> temporaryFiles() throws Exception {
        Files.createDirectories(dir.resolve("tmp"));
        try (Stream<Path> s = Files.list(dir.resolve("tmp"))) {
            return s.collect(Collectors.toSet());
        }
    }

    /** The ffmpeg processes this JVM started that still run. */
    private static List<ProcessHandle> ffmpegChildren() {
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/ffmpeg")).orElse(false)).forEach(found::add);
        return found;
    }

    @Test
    void frames_workBoundedByTheFilesSize_notByItsClaimedDuration() throws Exception {
        // Two frames, the second 100,000 s after the first: a 2 KB file that claims 27.8 hours.
        Path huge = Ffmpeg.make(dir.resolve("claims-28-hours.mkv"), "-f", "lavfi", "-i", "testsrc=size=32x32:rate=1:duration=2", "-vf",
                "setpts=PTS*100000", "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p");
        long size = Files.size(huge);
        assertThat(size).isLessThan(4096);
        assertThat(StreamHashes.probe(huge).seconds()).hasValueSatisfying(s -> assertThat(s).isGreaterThan(99_000.0));
        Set<Path> before = temporaryFiles();

        long start = System.nanoTime();
        Frames f = StreamHashes.frames(huge, StreamHashes.probe(huge).seconds(), dir.resolve("tmp")).value();
        MediaComparison.Side side = MediaComparison.ofFile(huge, "claims-28-hours.mkv", new ArrayList<>());
        double seconds = (System.nanoTime() - start) / 1e9;

        assertThat(f.count()).isEqualTo(2);
        // One per-second hash per 8 bytes of file at most, not one per claimed second (100,001 before).
        assertThat(f.seconds().length).isLessThanOrEqualTo(Frames.maxFrames(size)).isLessThan(1000);
        assertThat(side.frames()).hasValueSatisfying(s -> assertThat(s.count()).isEqualTo(2));
        // Generous for two tiny frames on a busy machine; it took 14 s and 100 MB of temporary file before.
        assertThat(seconds).isLessThan(10);
        assertThat(temporaryFiles()).isEqualTo(before);
    }

    @Test
    void frames_refused_whenTheFileDecodesToMoreFramesThanItsBytesCanHold() throws Exception {
        // 1,000 raw 2x2 grey frames in NUT: 6 bytes a frame, fewer than any camera's container spends.
        Path tiny = Ffmpeg.make(dir.resolve("tiny.nut"), "-f", "lavfi", "-i", "color=size=2x2:rate=100:d=10", "-c:v", "rawvideo",
                "-pix_fmt", "gray");
        assertThat(Files.size(tiny) / Frames.MIN_FRAME_BYTES).isLessThan(1000);
        Set<Path> before = temporaryFiles();
        assertThatThrownBy(() -> StreamHashes.frames(tiny, Optional.empty(), dir.resolve("tmp"))).isInstanceOf(StreamHashes.NotHashed.class)
                .hasMessageContaining("more than a file of that size can hold");
        assertThat(temporaryFiles()).isEqualTo(before);
        assertThat(ffmpegChildren()).isEmpty();
    }

    @Test
    void frames_stopsFfmpeg_andRemovesItsTemporaryFile_whenInterrupted() throws Exception {
        // FFmpeg waits on a named pipe that nobody writes: it runs until it is stopped.
        Path fifo = dir.resolve("never-written.mp4");
        ProcessResult made = ExternalTool.run(List.of("mkfifo", fifo.toString()), Map.of(), java.time.Duration.ofSeconds(10));
        assertThat(made.succeeded()).as(made.describe()).isTrue();
        Set<Path> before = temporaryFiles();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                StreamHashes.frames(fifo, Optional.empty(), dir.resolve("tmp"));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (ffmpegChildren().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ffmpegChildren()).as("ffmpeg started").hasSize(1);
        assertThat(temporaryFiles()).as("the per-second frames' file, while ffmpeg runs").hasSize(1);
        t.interrupt();
        t.join(2000);
        assertThat(t.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(StreamHashes.NotHashed.class).hasMessageContaining("interrupted");
        long gone = System.nanoTime() + 2_000_000_000L;
        while (!ffmpegChildren().isEmpty() && System.nanoTime() < gone) {
            Thread.sleep(20);
        }
        assertThat(ffmpegChildren()).isEmpty();
        assertThat(temporaryFiles()).isEqualTo(before).isEmpty();
    }
}
