// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class ProofStoreTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final String OTHER = "9648aacd684e20540379b9a79a4d4d2bbc761295ddc2e1f1dac87f1468f2e092";

    @TempDir
    Path root;

    private ProofStore store() {
        return new ProofStore(root);
    }

    @Test
    void write_saysWhatWentWrong_rootUnderAFile() throws IOException {
        Path file = Files.writeString(root.resolve("file"), "x");
        ProofStore store = new ProofStore(file.resolve("proofs"));

        assertThatThrownBy(() -> store.write(H, Map.of(H + ".asc", new byte[] {1}), false))
                .isInstanceOf(ProofModeException.class)
                .hasMessage("cannot write proof to " + file.resolve("proofs").resolve(H) + " (" + file + ": already exists)");
    }

    @Test
    void findAndList_ignore_leftoverTempFolderHoldingWholeSet() throws IOException {
        Path tmp = Files.createDirectories(root.resolve(".tmp-" + H + "-5d1c1f7e-0000-4000-8000-000000000000"));
        writeSet(tmp, "leftover");

        assertThat(store().find(H)).isEmpty();
        assertThat(store().list()).isEmpty();
    }

    @Test
    void recover_removesTempFolders_leftoverWrite() throws IOException {
        Path tmp = Files.createDirectories(root.resolve(".tmp-" + H + "-5d1c1f7e-0000-4000-8000-000000000000"));
        writeSet(tmp, "leftover");
        ageBeyondStale(tmp);
        store().write(OTHER, bytes(files(OTHER, "kept")), false);

        store().recover();

        assertThat(tmp).doesNotExist();
        assertThat(names(root)).containsExactly(OTHER);
        assertThat(read(store().find(OTHER).orElseThrow())).isEqualTo(files(OTHER, "kept"));
    }

    @Test
    void recover_restoresOldSet_replacedSetMissing() throws IOException {
        Path old = Files.createDirectories(root.resolve(".old-" + H + "-5d1c1f7e-0000-4000-8000-000000000000"));
        writeSet(old, "previous");
        ageBeyondStale(old);
        assertThat(store().find(H)).isEmpty();

        store().recover();

        assertThat(old).doesNotExist();
        assertThat(store().find(H)).contains(root.resolve(H));
        assertThat(read(root.resolve(H))).isEqualTo(files("previous"));
        assertThat(store().list()).containsExactly(H);
    }

    @Test
    void recover_keepsNewSetAndDropsOld_replacementFinished() throws IOException {
        store().write(H, bytes(files("new")), false);
        Path old = Files.createDirectories(root.resolve(".old-" + H + "-5d1c1f7e-0000-4000-8000-000000000000"));
        writeSet(old, "previous");
        ageBeyondStale(old);

        store().recover();

        assertThat(old).doesNotExist();
        assertThat(read(root.resolve(H))).isEqualTo(files("new"));
    }

    @Test
    void recover_leavesYoungTempFolder_writeMayBeInProgress() throws IOException {
        Path tmp = Files.createDirectories(root.resolve(".tmp-" + H + "-5d1c1f7e-0000-4000-8000-000000000000"));
        writeSet(tmp, "in progress");

        store().recover();

        assertThat(tmp).exists();
        assertThat(store().find(H)).isEmpty();
    }

    /** Makes a folder look untouched for longer than a live write could leave it. */
    private static void ageBeyondStale(Path folder) throws IOException {
        Files.setLastModifiedTime(folder, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(ProofStore.STALE_AFTER).minusSeconds(60)));
    }

    @Test
    void recover_doesNothing_storeFolderMissing() {
        ProofStore missing = new ProofStore(root.resolve("none"));

        missing.recover();

        assertThat(root.resolve("none")).doesNotExist();
        assertThat(missing.list()).isEmpty();
    }

    @Test
    void write_makesOwnerOnlyFolders_storeAndParentsMissing() throws IOException {
        Path home = root.resolve("home");
        ProofStore.Written w = new ProofStore(home.resolve("proofs")).write(H, bytes(files("x")), false);

        for (Path p : List.of(home, home.resolve("proofs"), w.folder())) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                    .as(p.toString()).isEqualTo("rwx------");
        }
    }

    @Test
    void write_keepsExistingSetUntouched_replaceFalse() throws IOException {
        ProofStore.Written first = store().write(H, bytes(files("first")), false);
        Map<String, Object> before = snapshot(first.folder());

        ProofStore.Written second = store().write(H, bytes(files("second")), false);

        assertThat(first.existing()).isFalse();
        assertThat(second.existing()).isTrue();
        assertThat(second.folder()).isEqualTo(first.folder());
        assertThat(snapshot(first.folder())).isEqualTo(before);
        assertThat(names(root)).containsExactly(H);
    }

    @Test
    void write_replacesWholeSetAndLeavesNoLeftovers_replaceTrue() throws IOException {
        store().write(H, bytes(files("first")), false);

        ProofStore.Written w = store().write(H, bytes(files("second")), true);

        assertThat(w.existing()).isFalse();
        assertThat(read(root.resolve(H))).isEqualTo(files("second"));
        assertThat(names(root)).containsExactly(H);
    }

    @Test
    void write_endsWithOneWholeSet_eightConcurrentWritersWithoutReplace() throws Exception {
        List<Object> outcomes = concurrently(8, i -> store().write(H, bytes(files("writer " + i)), false));

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(ProofStore.Written.class));
        assertThat(outcomes).filteredOn(o -> !((ProofStore.Written) o).existing()).hasSize(1);
        assertOneWholeSetFromOneWriter(8);
        assertThat(names(root)).containsExactly(H);
    }

    @Test
    void write_endsWithOneWholeSet_eightConcurrentWritersReplacing() throws Exception {
        store().write(H, bytes(files("before")), false);

        List<Object> outcomes = concurrently(8, i -> store().write(H, bytes(files("writer " + i)), true));

        // A writer that loses the race may fail with IO; none may fail otherwise, or leave a mixed set.
        assertThat(outcomes).allSatisfy(o -> {
            if (o instanceof ProofModeException e) {
                assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.IO);
            } else {
                assertThat(o).isInstanceOf(ProofStore.Written.class);
            }
        });
        assertThat(outcomes).anySatisfy(o -> assertThat(o).isInstanceOf(ProofStore.Written.class));
        assertOneWholeSetFromOneWriter(8);
        store().recover();
        assertThat(names(root)).containsExactly(H);
        assertOneWholeSetFromOneWriter(8);
    }

    @Test
    void write_succeedsWithWholeSet_recoverRunsWhileWriting() {
        ProofStore store = store();
        Map<String, byte[]> hooked = new HookedMap(bytes(files("writer")), 2, store::recover);

        ProofStore.Written w = store.write(H, hooked, false);

        assertThat(w.existing()).isFalse();
        assertThat(read(root.resolve(H))).isEqualTo(files("writer"));
    }

    @Test
    void folder_rejects_notASha256() {
        assertThatThrownBy(() -> store().folder("../" + H.substring(3)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().write("abc", bytes(files("x")), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A map whose entry iteration runs a hook once, after handing out the first {@code after} entries. */
    private static final class HookedMap extends AbstractMap<String, byte[]> {
        private final Map<String, byte[]> delegate;
        private final int after;
        private final Runnable hook;

        HookedMap(Map<String, byte[]> delegate, int after, Runnable hook) {
            this.delegate = delegate;
            this.after = after;
            this.hook = hook;
        }

        @Override
        public Set<Map.Entry<String, byte[]>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, byte[]>> iterator() {
                    Iterator<Map.Entry<String, byte[]>> it = delegate.entrySet().iterator();
                    return new Iterator<>() {
                        private int handed;

                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Map.Entry<String, byte[]> next() {
                            if (handed++ == after) {
                                hook.run();
                            }
                            return it.next();
                        }
                    };
                }

                @Override
                public int size() {
                    return delegate.size();
                }
            };
        }
    }

    /** Runs the action on n threads released together; returns each result or the exception it threw. */
    private static List<Object> concurrently(int n, IntFunction<Object> action) throws Exception {
        CyclicBarrier start = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Object>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    try {
                        return action.apply(id);
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            List<Object> out = new ArrayList<>();
            for (Future<Object> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private void assertOneWholeSetFromOneWriter(int writers) {
        Map<String, String> set = read(root.resolve(H));
        List<Map<String, String>> candidates = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            candidates.add(files("writer " + i));
        }
        candidates.add(files("before"));
        assertThat(candidates).contains(set);
        assertThat(store().find(H)).isPresent();
    }

    /** The files of a proof set, each holding its name and a tag naming who wrote it. */
    private static Map<String, String> files(String writer) {
        return files(H, writer);
    }

    private static Map<String, String> files(String hash, String writer) {
        Map<String, String> m = new TreeMap<>();
        for (String name : List.of(ProofFiles.mediaSig(hash), ProofFiles.json(hash), ProofFiles.jsonSig(hash),
                ProofFiles.csv(hash), ProofFiles.csvSig(hash), ProofFiles.PUBKEY)) {
            m.put(name, name + " by " + writer);
        }
        return m;
    }

    private static Map<String, byte[]> bytes(Map<String, String> files) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        files.forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    private static void writeSet(Path dir, String writer) throws IOException {
        for (Map.Entry<String, String> f : files(writer).entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
    }

    /** The files of a folder: name to text. */
    static Map<String, String> read(Path dir) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                out.put(p.getFileName().toString(), Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Names, contents and modification times of the files in a folder. */
    private static Map<String, Object> snapshot(Path dir) throws IOException {
        Map<String, Object> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                out.put(p.getFileName().toString(), List.of(Files.readString(p), Files.getLastModifiedTime(p), Files.getAttribute(p, "unix:ino")));
            }
        }
        return out;
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
