// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The watcher on a real full disk: {@code PROOFMODE_HOME} (key, watch database, proof store) on a small
 * tmpfs that is filled to the last byte while files arrive. The watcher must say so in one line per file,
 * keep running, leave no partial proof and no corrupt database, and prove every waiting file once space
 * is freed. Mounting needs root, which the CI has ({@code .ci/run} runs as root); elsewhere this test
 * fails and says why rather than pass without running.
 */
class FullDiskIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void watch_provesWaitingFilesOnceSpaceReturns_fullDisk() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disk"));
        mount(disk);
        Process watcher = null;
        try {
            Path home = disk.resolve("home");
            Path media = Files.createDirectories(dir.resolve("media"));
            ProcessResult key = run(home, "keys", "create");
            assertThat(key.exitCode()).as(key.describe()).isZero();

            Path log = dir.resolve("watch.log");
            watcher = Daemon.start(home, log, List.of(), "watch", "--settle-ms", "100", media.toString());
            Map<String, Path> byHash = new LinkedHashMap<>();
            Path first = TestMedia.jpeg(media, "first.jpg", 1);
            byHash.put(TestMedia.sha256(first), first);
            Daemon.await(log, " proved path=" + first);

            Path filler = fill(disk);
            List<Path> waiting = List.of(TestMedia.jpeg(media, "second.jpg", 2), TestMedia.jpeg(media, "third.jpg", 3));
            for (Path p : waiting) {
                byHash.put(TestMedia.sha256(p), p);
                Daemon.await(log, " error path=" + p);
            }
            assertThat(Files.readString(log)).contains("No space left on device").contains("retryInMs=");
            assertThat(watcher.isAlive()).as("the watcher keeps running on a full disk").isTrue();
            ProcessResult full = run(home, "status", "--json");
            assertThat(full.exitCode()).as("status reads the database on a full disk: " + full.describe()).isZero();
            assertThat(JSON.readTree(full.stdout()).path("diskFull").asBoolean()).as(full.stdout()).isTrue();
            ProcessResult text = run(home, "status");
            assertThat(text.stdout()).as(text.describe()).contains("disk:        FULL (");

            Files.delete(filler);
            for (Path p : waiting) {
                Daemon.await(log, " proved path=" + p);
            }
            watcher.destroy();
            assertThat(watcher.waitFor(60, TimeUnit.SECONDS)).isTrue();

            StoreCheck.onlyWholeValidProofs(home, byHash, "after a full disk");
            try (Stream<Path> s = Files.list(home.resolve("proofs"))) {
                assertThat(s.map(p -> p.getFileName().toString())).as("no temporary folder left behind").containsOnly(
                        byHash.keySet().toArray(String[]::new));
            }
            ProcessResult status = run(home, "status", "--json");
            assertThat(status.exitCode()).as(status.describe()).isZero();
            JsonNode s = JSON.readTree(status.stdout());
            assertThat(s.path("files").path("done").asLong()).as(status.stdout()).isEqualTo(3);
            assertThat(s.path("files").path("pending").asLong()).as(status.stdout()).isZero();
            assertThat(s.path("diskFull").asBoolean()).as(status.stdout()).isFalse();
        } finally {
            if (watcher != null && watcher.isAlive()) {
                watcher.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            ExternalTool.run(List.of("umount", "-l", disk.toString()), Map.of(), Duration.ofSeconds(30));
        }
    }

    /** Mounts a 4 MiB tmpfs on {@code at}: a disk that really fills. */
    private static void mount(Path at) {
        ProcessResult m = ExternalTool.run(List.of(ExternalTool.require("mount").toString(), "-t", "tmpfs", "-o", "size=4m,mode=0700",
                "tmpfs", at.toString()), Map.of(), Duration.ofSeconds(30));
        assertThat(m.exitCode()).as("this test mounts a small tmpfs and needs root (the CI runs as root): " + m.describe()).isZero();
    }

    /** Writes one file until the disk refuses: afterwards not one more byte fits. */
    private static Path fill(Path disk) throws IOException {
        Path filler = disk.resolve("filler");
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            assertThat(full.getMessage()).contains("No space left");
        }
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (IOException full) {
            return filler;
        }
    }

    private static ProcessResult run(Path home, String... args) {
        return ExternalTool.run(Daemon.command(List.of(), args), Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE",
                ProofModeJar.PASSPHRASE), Duration.ofSeconds(120));
    }
}
