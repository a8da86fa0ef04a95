// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.keys.StoreKeys;
import org.proofmode.media.Digests;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.watch.WatchEvent.Kind;

/**
 * The watcher's database in a home whose store is encrypted: a real watcher proves photos whose names say
 * what they show, and the database files (with the write-ahead log and its index) hold no file name, no
 * folder name and no media hash; the proofs verify with the store's identity; a restart proves nothing
 * again; {@code status} counts without the identity and lists with it; a plain database is sealed in place.
 */
class SealedWatchDbTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<String> NAMES = List.of("protest-2026-kyiv.jpg", "checkpoint-alpha-7.jpg", "witness-olena-face.jpg");

    @TempDir
    Path dir;

    private Path home;
    private SigningKey key;
    private Path media;
    private final Map<Path, String> hashes = new LinkedHashMap<>();

    @BeforeEach
    void setUp() throws IOException {
        home = dir.resolve("home");
        key = TestHomes.keyIn(ProofMode.at(home), KeyType.ED25519);
        media = dir.resolve("kyiv-march-2026").resolve("evening-unit");
        for (int i = 0; i < NAMES.size(); i++) {
            Path f = TestHomes.jpegLike(media.resolve(NAMES.get(i)), 500 + i, 4000 + i);
            hashes.put(f, sha256(f));
        }
        Files.writeString(media.resolve("notes-for-editor.txt"), "not media: meet at six, bring the cards\n");
    }

    @Test
    void run_keepsNoNameOrHashInItsDatabase_encryptedHome() throws Exception {
        StoreIdentity identity;
        try (Passphrase p = TestHomes.passphrase()) {
            identity = ProofMode.at(home).encryptStore(p).identity();
        }
        ProofMode pm = ProofMode.at(home);
        assertThat(pm.store().isEncrypted()).isTrue();

        try (RunningWatcher w = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media.getParent()), true), seal(pm))) {
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == NAMES.size() && w.of(Kind.SKIPPED).size() == 1);
            // While it runs, with its write-ahead log and the log's index beside the database.
            assertThat(home.resolve(WatchDb.FILE + "-wal")).exists();
            assertNothingNamesMedia();
        }
        assertNothingNamesMedia();
        // A file's size and time could pick out a known photo as well as its name: they are sealed too.
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + home.resolve(WatchDb.FILE));
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT size, mtime FROM files")) {
            int rows = 0;
            while (r.next()) {
                rows++;
                assertThat(r.getLong(1)).isZero();
                assertThat(r.getLong(2)).isZero();
            }
            assertThat(rows).isEqualTo(NAMES.size() + 1);
        }
        ProofMode reading = pm.withStoreIdentity(identity);
        for (Map.Entry<Path, String> e : hashes.entrySet()) {
            try (Bundle b = reading.store().bundle(e.getValue(), BundleLimits.DEFAULT).orElseThrow()) {
                VerificationReport r = reading.verifier(Trust.HOME).verify(b, Optional.of(e.getKey()));
                assertThat(r.verdict()).as(r.allChecks().toString()).isEqualTo(Verdict.TRUSTED);
            }
        }
        int sets = pm.store().folderCount();
        assertThat(sets).isEqualTo(NAMES.size());

        // A restart finds every unchanged file in its sealed rows: nothing is proved again.
        try (RunningWatcher again = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media.getParent()), true), seal(pm))) {
            again.awaitIdle(WAIT, () -> true);
            assertThat(again.of(Kind.DETECTED)).isEmpty();
            assertThat(again.of(Kind.PROVED)).isEmpty();
        }
        assertThat(pm.store().folderCount()).isEqualTo(sets);
        assertNothingNamesMedia();

        // Without the identity, status counts; with it, it lists.
        WatchStatus locked = WatchStatus.of(pm, 10);
        assertThat(locked.locked()).isTrue();
        assertThat(locked.counts()).containsEntry(FileState.DONE, (long) NAMES.size()).containsEntry(FileState.SKIPPED, 1L);
        assertThat(locked.folders()).isEmpty();
        assertThat(locked.lastProofs()).isEmpty();
        WatchStatus open = WatchStatus.of(pm, 10, Optional.of(identity));
        assertThat(open.locked()).isFalse();
        assertThat(open.folders()).containsExactly(media.getParent().toString());
        assertThat(open.lastProofs()).extracting(ProofEntry::path)
                .containsExactlyInAnyOrderElementsOf(hashes.keySet().stream().map(Path::toString).toList());
        assertThat(open.lastProofs()).extracting(ProofEntry::sha256).containsExactlyInAnyOrderElementsOf(hashes.values());
        assertThatThrownBy(() -> WatchDb.open(home.resolve(WatchDb.FILE)))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
        identity.destroy();
    }

    @Test
    void open_sealsAPlainDatabaseInPlace_noOldTextLeftInTheFiles() throws Exception {
        ProofMode plain = ProofMode.at(home);
        try (RunningWatcher w = new RunningWatcher(plain, key, RunningWatcher.quick(List.of(media.getParent()), true))) {
            w.awaitIdle(WAIT, () -> w.of(Kind.PROVED).size() == NAMES.size());
        }
        // The search finds what a plain database holds.
        assertThat(found(NAMES.get(0))).isTrue();
        assertThat(found(hashes.values().iterator().next())).isTrue();

        StoreIdentity identity;
        try (Passphrase p = TestHomes.passphrase()) {
            identity = ProofMode.at(home).encryptStore(p).identity();
        }
        ProofMode pm = ProofMode.at(home);
        try (WatchSeal s = seal(pm).orElseThrow().get(); WatchDb db = WatchDb.open(home.resolve(WatchDb.FILE), Optional.of(s))) {
            assertThat(db.isSealed()).isTrue();
            Map<String, TrackedFile> files = db.files();
            for (Map.Entry<Path, String> e : hashes.entrySet()) {
                assertThat(files.get(e.getKey().toString()).sha256()).contains(e.getValue());
                assertThat(db.proof(e.getValue()).map(ProofEntry::path)).contains(e.getKey().toString());
            }
        }
        assertNothingNamesMedia();
        try (RunningWatcher again = new RunningWatcher(pm, key, RunningWatcher.quick(List.of(media.getParent()), true), seal(pm))) {
            again.awaitIdle(WAIT, () -> true);
            assertThat(again.of(Kind.PROVED)).isEmpty();
        }
        assertThat(WatchStatus.of(pm, 10, Optional.of(identity)).lastProofs()).hasSize(NAMES.size());
        identity.destroy();
    }

    @Test
    void apply_sealsErrorsAndPaths_andAnotherKeyDropsTheRows() throws Exception {
        try (Passphrase p = TestHomes.passphrase()) {
            ProofMode.at(home).encryptStore(p).identity().destroy();
        }
        ProofMode pm = ProofMode.at(home);
        Path file = home.resolve(WatchDb.FILE);
        String path = media.resolve(NAMES.get(0)).toString();
        try (WatchSeal s = seal(pm).orElseThrow().get(); WatchDb db = WatchDb.open(file, Optional.of(s))) {
            WatchDb.Batch b = new WatchDb.Batch();
            b.put(TrackedFile.seen(path, 10, 20, Instant.EPOCH, "scan", Map.of("Location.Place", "Maidan"))
                    .failed(FileState.FAILED, 5, 0, path + ": cannot read: permission denied"));
            db.apply(b);
            assertThat(db.problems(5)).extracting(t -> t.lastError().orElseThrow()).containsExactly(path + ": cannot read: permission denied");
            assertThat(db.files().get(path).snapshot()).containsEntry("Location.Place", "Maidan");
        }
        assertNothingNamesMedia();
        assertThat(found("Maidan")).isFalse();
        try (WatchDb db = WatchDb.openToRead(file)) {
            assertThat(db.locked()).isTrue();
            assertThat(db.counts()).containsEntry(FileState.FAILED, 1L);
        }

        // A key made again (the store's keys were replaced): the old rows cannot be read and are dropped.
        byte[] other = new byte[StoreKeys.WATCH_KEY_BYTES];
        Arrays.fill(other, (byte) 7);
        try (WatchSeal s = WatchSeal.of(other, pm.storeKeys()); WatchDb db = WatchDb.open(file, Optional.of(s))) {
            assertThat(db.files()).isEmpty();
        }
    }

    private static Optional<Supplier<WatchSeal>> seal(ProofMode pm) {
        return Optional.of(() -> {
            try (Passphrase p = TestHomes.passphrase()) {
                return WatchSeal.unlock(pm.storeKeys(), p);
            }
        });
    }

    /** No file name, name without its extension, folder name, path or media hash in any of the database's files. */
    private void assertNothingNamesMedia() throws IOException {
        List<String> needles = new ArrayList<>();
        for (Map.Entry<Path, String> e : hashes.entrySet()) {
            String name = e.getKey().getFileName().toString();
            needles.add(name);
            needles.add(name.substring(0, name.lastIndexOf('.')));
            needles.add(e.getKey().toString());
            needles.add(e.getValue());
            needles.add(e.getValue().toUpperCase(Locale.ROOT));
        }
        needles.addAll(List.of("notes-for-editor", "kyiv-march-2026", "evening-unit", dir.getFileName().toString()));
        assertThat(Files.exists(home.resolve(WatchDb.FILE))).isTrue();
        for (String n : needles) {
            assertThat(found(n)).as("'%s' in the watch database's files", n).isFalse();
        }
    }

    private boolean found(String needle) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String suffix : List.of("", "-wal", "-shm")) {
            Path f = home.resolve(WatchDb.FILE + suffix);
            if (Files.exists(f)) {
                all.write(Files.readAllBytes(f));
                all.write(0);
            }
        }
        // Byte for byte: ISO-8859-1 maps each byte to one char.
        return all.toString(StandardCharsets.ISO_8859_1).contains(new String(needle.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }

    private static String sha256(Path f) {
        try {
            return Digests.sha256(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
