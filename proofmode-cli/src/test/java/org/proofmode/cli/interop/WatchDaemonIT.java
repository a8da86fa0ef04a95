// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.watch.FileState;
import org.proofmode.watch.TrackedFile;
import org.proofmode.watch.WatchDb;

/**
 * Runs {@code proofmode watch} from the shaded jar, drops and renames files while it runs, kills it with
 * SIGKILL at random moments again and again (files also arrive while it is down), and checks after every
 * kill that the store holds only whole, valid proofs of real files. A last run then catches up and is
 * stopped with SIGTERM: every file must end with exactly one valid proof, recorded as done in the
 * watcher's database. The moments come from a fixed seed, so a failure can be replayed.
 */
class WatchDaemonIT {
    private static final int FIRST_FILES = 30;
    private static final int KILLS = 8;

    @TempDir
    Path dir;

    private final Map<Path, String> hashOf = new HashMap<>();
    private int made;

    @Test
    void watch_leavesEveryFileWithExactlyOneValidProof_killedAtRandomMoments() throws Exception {
        Path media = Files.createDirectories(dir.resolve("media"));
        Files.createDirectories(media.resolve("sub"));
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        ProcessResult key = pm.run("keys", "create");
        assertThat(key.exitCode()).as(key.describe()).isZero();
        for (int i = 0; i < FIRST_FILES; i++) {
            drop(media);
        }
        Random random = new Random(20261203L);
        for (int round = 1; round <= KILLS; round++) {
            Path log = dir.resolve("watch-" + round + ".log");
            Process p = start(pm, log, media);
            Daemon.await(log, " started ");
            long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextInt(2500));
            while (System.nanoTime() < killAt) {
                int what = random.nextInt(10);
                if (what < 4) {
                    drop(random.nextBoolean() ? media : media.resolve("sub"));
                } else if (what == 4) {
                    rename(random, media);
                }
                Thread.sleep(30 + random.nextInt(120));
            }
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            StoreCheck.onlyWholeValidProofs(pm.home(), byHash(), "after kill " + round);
            for (int i = 0; i < 3; i++) {
                drop(media.resolve("sub"));
            }
        }

        Path lastLog = dir.resolve("watch-last.log");
        Process p = start(pm, lastLog, media);
        awaitAllProved(pm, lastLog);
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        assertThat(Files.readString(lastLog)).contains(" stopped ").doesNotContain(" failed ");

        StoreCheck.onlyWholeValidProofs(pm.home(), byHash(), "at the end");
        assertThat(new HashSet<>(ProofMode.at(pm.home()).store().list())).as("one proof per content, nothing else")
                .isEqualTo(new HashSet<>(hashOf.values()));
        try (WatchDb db = WatchDb.open(pm.home().resolve(WatchDb.FILE))) {
            Map<String, TrackedFile> files = db.files();
            assertThat(files).hasSize(hashOf.size());
            for (Map.Entry<Path, String> e : hashOf.entrySet()) {
                TrackedFile t = files.get(e.getKey().toString());
                assertThat(t).as("database row of " + e.getKey()).isNotNull();
                assertThat(t.state()).isEqualTo(FileState.DONE);
                assertThat(t.sha256()).contains(e.getValue());
            }
        }
    }

    private void awaitAllProved(ProofModeJar pm, Path log) throws Exception {
        ProofMode home = ProofMode.at(pm.home());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < until) {
            if (new HashSet<>(home.store().list()).containsAll(hashOf.values())) {
                ProcessResult status = pm.run("status", "--json");
                assertThat(status.exitCode()).as(status.describe()).isZero();
                JsonNode s = new ObjectMapper().readTree(status.stdout());
                assertThat(s.path("running").asBoolean()).isTrue();
                if (s.path("queueLength").asLong() == 0) {
                    return;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("not every file was proved in time; log:\n" + Files.readString(log));
    }

    private void drop(Path folder) throws IOException {
        Path f = TestMedia.jpeg(folder, "photo" + made + ".jpg", 90_000 + made);
        made++;
        hashOf.put(f.toAbsolutePath(), TestMedia.sha256(f));
    }

    private void rename(Random random, Path media) throws IOException {
        List<Path> all = new ArrayList<>(hashOf.keySet());
        all.sort(null);
        Path from = all.get(random.nextInt(all.size()));
        Path to = (random.nextBoolean() ? media : media.resolve("sub")).resolve("renamed" + made++ + ".jpg").toAbsolutePath();
        Files.move(from, to);
        hashOf.put(to, hashOf.remove(from));
    }

    private static Process start(ProofModeJar pm, Path log, Path media) throws IOException {
        return Daemon.start(pm.home(), log, List.of(), "watch", "--recursive", "--settle-ms", "200", "--rescan", "2", media.toString());
    }

    private Map<String, Path> byHash() {
        Map<String, Path> out = new HashMap<>();
        hashOf.forEach((path, h) -> out.put(h, path));
        return out;
    }
}
