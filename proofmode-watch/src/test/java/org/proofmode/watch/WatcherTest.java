// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.watch.WatchEvent.Kind;

class WatcherTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private ProofMode pm;
    private SigningKey key;
    private Path media;

    @BeforeEach
    void setUp() throws Exception {
        pm = ProofMode.at(dir.resolve("home"));
        key = TestHomes.keyIn(pm, KeyType.ED25519);
        media = Files.createDirectories(dir.resolve("media"));
    }

    @Test
    void run_provesEveryFileOnce_burstOfThousand() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Set<String> hashes = new HashSet<>();
            for (int i = 0; i < 1000; i++) {
                hashes.add(Digests.sha256(TestHomes.jpegLike(media.resolve("burst" + i + ".jpg"), i, 2048)));
            }
            w.awaitIdle(Duration.ofMinutes(3), () -> w.of(Kind.PROVED).size() >= 1000);
            assertThat(w.of(Kind.PROVED)).hasSize(1000);
            assertThat(w.of(Kind.FAILED)).isEmpty();
            assertThat(new HashSet<>(pm.store().list())).isEqualTo(hashes);
        }
        try (WatchDb db = WatchDb.open(pm.home().resolve(WatchDb.FILE))) {
            assertThat(db.counts().get(FileState.DONE)).isEqualTo(1000L);
            assertThat(db.lastProofs(2000)).hasSize(1000);
        }
        for (int i = 0; i < 1000; i += 97) {
            assertValidProof(media.resolve("burst" + i + ".jpg"));
        }
    }

    @Test
    void run_provesOnlyTheCompleteFile_fileGrowingWhileOpen() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Path f = media.resolve("growing.jpg");
            Random rnd = new Random(7);
            try (OutputStream out = Files.newOutputStream(f)) {
                out.write(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0});
                for (int i = 0; i < 20; i++) {
                    byte[] chunk = new byte[1000];
                    rnd.nextBytes(chunk);
                    out.write(chunk);
                    out.flush();
                    // pauses longer than the settle time: only the open writer keeps it from being proved
                    Thread.sleep(i % 5 == 0 ? 600 : 50);
                    assertThat(pm.store().list()).as("no proof while it is written").isEmpty();
                }
            }
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            assertThat(pm.store().list()).containsExactly(Digests.sha256(f));
            assertValidProof(f);
        }
    }

    @Test
    void run_provesOnlyTheCompleteFile_appendsWithPausesShorterThanSettle() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Path f = TestHomes.jpegLike(media.resolve("appended.jpg"), 1, 500);
            for (int i = 0; i < 15; i++) {
                Thread.sleep(100);
                Files.write(f, new byte[] {(byte) i, 1, 2, 3}, StandardOpenOption.APPEND);
                assertThat(pm.store().list()).as("no proof while it grows").isEmpty();
            }
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            assertThat(pm.store().list()).containsExactly(Digests.sha256(f));
        }
    }

    @Test
    void run_skipsWithALogLine_linksAndFifosNotFollowingFolderLinks() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path secret = TestHomes.jpegLike(outside.resolve("not-for-proving.jpg"), 7, 3000);
        Files.createDirectories(media.resolve("sub"));
        Files.createSymbolicLink(media.resolve("loop"), media);
        Files.createSymbolicLink(media.resolve("out"), outside);
        Files.createSymbolicLink(media.resolve("link.jpg"), secret);
        Process mk = new ProcessBuilder("mkfifo", media.resolve("pipe").toString()).start();
        assertThat(mk.waitFor()).isZero();
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), true))) {
            w.awaitIdle(WAIT, () -> w.of(Kind.SKIPPED).size() == 4);
            Path a = TestHomes.jpegLike(media.resolve("a.jpg"), 8, 3000);
            Path b = TestHomes.jpegLike(media.resolve("sub").resolve("b.jpg"), 9, 3000);
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 2);
            Thread.sleep(1500);
            w.awaitIdle(WAIT, () -> true);

            Map<String, String> reasons = new java.util.TreeMap<>();
            w.of(Kind.SKIPPED).forEach(e -> reasons.put(e.fields().get("path"), e.fields().get("reason")));
            assertThat(reasons).containsOnly(
                    Map.entry(media.resolve("link.jpg").toString(), "symbolic link (not followed)"),
                    Map.entry(media.resolve("loop").toString(), "symbolic link (not followed)"),
                    Map.entry(media.resolve("out").toString(), "symbolic link (not followed)"),
                    Map.entry(media.resolve("pipe").toString(), "not a regular file (FIFO, device or socket)"));
            assertThat(w.of(Kind.PROVED)).extracting(e -> e.fields().get("path"))
                    .containsExactlyInAnyOrder(a.toString(), b.toString());
            assertThat(w.of(Kind.KNOWN)).isEmpty();
            assertThat(w.of(Kind.WATCHING)).extracting(e -> e.fields().get("folder"))
                    .noneMatch(f -> f.contains("loop") || f.contains("out"));
            assertThat(pm.store().list()).containsExactlyInAnyOrder(Digests.sha256(a), Digests.sha256(b));
        }
    }

    @Test
    void run_recognisesRenamesAndMovesByHash_withoutNewProof() throws Exception {
        Files.createDirectories(media.resolve("sub"));
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), true))) {
            Path f = TestHomes.jpegLike(media.resolve("a.jpg"), 3, 4000);
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            Path renamed = Files.move(f, media.resolve("b.jpg"));
            w.awaitIdle(WAIT, () -> w.of(Kind.KNOWN).size() == 1);
            Path moved = Files.move(renamed, media.resolve("sub").resolve("c.jpg"));
            w.awaitIdle(WAIT, () -> w.of(Kind.KNOWN).size() == 2);
            assertThat(w.of(Kind.PROVED)).hasSize(1);
            assertThat(w.of(Kind.KNOWN).get(0).fields()).containsEntry("provedAs", f.toString());
            assertThat(pm.store().list()).containsExactly(Digests.sha256(moved));
        }
        try (WatchDb db = WatchDb.open(pm.home().resolve(WatchDb.FILE))) {
            Map<String, TrackedFile> files = db.files();
            assertThat(files).containsOnlyKeys(media.resolve("sub").resolve("c.jpg").toString());
            assertThat(files.values().iterator().next().state()).isEqualTo(FileState.DONE);
        }
    }

    @Test
    void run_catchesUpOnWhatChangedWhileStopped_restart() throws Exception {
        Path kept = TestHomes.jpegLike(media.resolve("kept.jpg"), 10, 3000);
        Path edited = TestHomes.jpegLike(media.resolve("edited.jpg"), 11, 3000);
        Path deleted = TestHomes.jpegLike(media.resolve("deleted.jpg"), 12, 3000);
        String deletedHash = Digests.sha256(deleted);
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 3);
        }
        Files.delete(deleted);
        Files.write(edited, new byte[] {9, 9, 9}, StandardOpenOption.APPEND);
        Path arrived = TestHomes.jpegLike(media.resolve("arrived.jpg"), 13, 3000);
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 2);
            assertThat(w.of(Kind.DETECTED)).extracting(e -> e.fields().get("path"))
                    .containsExactlyInAnyOrder(edited.toString(), arrived.toString());
            assertThat(w.of(Kind.GONE)).extracting(e -> e.fields().get("path")).containsExactly(deleted.toString());
        }
        assertThat(pm.store().list()).hasSize(5).contains(deletedHash, Digests.sha256(kept), Digests.sha256(edited),
                Digests.sha256(arrived));
        assertValidProof(edited);
        assertValidProof(arrived);
    }

    @Test
    void run_recordsDetectionAndContextAtFirstSight_watchFields() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Path f = TestHomes.jpegLike(media.resolve("fields.jpg"), 21, 3000);
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            String h = Digests.sha256(f);
            ProofRecord r = ProofJson.read(Files.readAllBytes(pm.store().folder(h).resolve(ProofFiles.json(h))), "proof").get(0);
            assertThat(r.get(WatchSource.DETECTED_BY)).contains("event");
            assertThat(r.get(WatchSource.SIZE_AT_DETECTION)).isPresent();
            assertThat(r.get(WatchSource.MODIFIED_AT_DETECTION)).isPresent();
            assertThat(r.get("File Modified")).isPresent();
            assertThat(r.get("Device.Clock.Time")).isPresent();
            String detected = r.get(WatchSource.DETECTED_AT).orElseThrow();
            String complete = r.get(WatchSource.COMPLETE_AT).orElseThrow();
            assertThat(java.time.Instant.parse(detected)).isBeforeOrEqualTo(java.time.Instant.parse(complete));
            assertThat(w.of(Kind.PROVED).get(0).fields()).containsKey("latencyMs");
        }
    }

    @Test
    void run_retriesAndThenStoresWholeProof_storeUnwritable() throws Exception {
        // The store's folder is a plain file: every write fails, as on a full disk.
        Files.createDirectories(pm.home());
        Path blocker = Files.write(pm.home().resolve("proofs"), new byte[0]);
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Path f = TestHomes.jpegLike(media.resolve("later.jpg"), 31, 3000);
            long until = System.nanoTime() + WAIT.toNanos();
            while (w.of(Kind.ERROR).size() < 2 && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(w.of(Kind.ERROR)).hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(e -> assertThat(e.fields()).containsEntry("path", f.toString()).containsKey("retryInMs"));
            assertThat(w.of(Kind.FAILED)).isEmpty();
            Files.delete(blocker);
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            assertValidProof(f);
        }
    }

    @Test
    void run_leavesNoProof_fileVanishesOrShrinksBeforeComplete() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            Path gone = TestHomes.jpegLike(media.resolve("gone.jpg"), 41, 3000);
            Path shrunk = TestHomes.jpegLike(media.resolve("shrunk.jpg"), 42, 100_000);
            Thread.sleep(100);
            Files.delete(gone);
            try (var ch = java.nio.channels.FileChannel.open(shrunk, StandardOpenOption.WRITE)) {
                ch.truncate(5000);
            }
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == 1);
            assertThat(pm.store().list()).containsExactly(Digests.sha256(shrunk));
            assertThat(w.of(Kind.GONE)).extracting(e -> e.fields().get("path")).contains(gone.toString());
        }
    }

    @Test
    void run_refuses_secondWatcherOnSameHome() throws Exception {
        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media), false))) {
            w.awaitIdle(WAIT, () -> true);
            assertThat(WatchLock.held(pm.home())).isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> WatchLock.take(pm.home()))
                    .hasMessageContaining("another watcher is running");
        }
        assertThat(WatchLock.held(pm.home())).isFalse();
    }

    private void assertValidProof(Path file) throws java.io.IOException {
        String h = Digests.sha256(file);
        Optional<Path> folder = pm.store().find(h);
        assertThat(folder).as("proof of " + file).isPresent();
        VerificationReport r = pm.verifier(Trust.HOME).verify(folder.get(), Optional.of(file));
        assertThat(r.verdict()).as(r.allChecks().toString()).isEqualTo(Verdict.TRUSTED);
    }
}
