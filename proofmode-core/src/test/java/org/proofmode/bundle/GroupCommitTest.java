// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;

/**
 * The group commit of proof sets through {@link ProofStore}, on the real file system: the order of its
 * steps for every set, the size of its groups past their bound, and a failure between its steps.
 */
class GroupCommitTest {
    @TempDir
    Path root;

    /** The steps of the commits, in the order they happened, as text: "group N", "flushed H", "placed H", "folder", "told H". */
    private final List<String> steps = Collections.synchronizedList(new ArrayList<>());

    private class Recording implements GroupCommit.Phases {
        @Override
        public void group(int sets) {
            steps.add("group " + sets);
        }

        @Override
        public void flushed(Path tmp) throws IOException {
            steps.add("flushed " + hashOf(tmp.getFileName().toString()));
        }

        @Override
        public void placed(Path folder) {
            steps.add("placed " + folder.getFileName());
        }

        @Override
        public void folderFlushed(Path folder) {
            steps.add("folder");
        }
    }

    @Test
    void write_flushesEverySetBeforeItsRenameAndTheFolderBeforeTellingTheWriter_concurrentWriters() throws Exception {
        ProofStore store = new ProofStore(root, new GroupCommit(GroupCommit.MAX_SETS, new Recording()));
        int writers = 40;
        List<String> hashes = hashes(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (String h : hashes) {
                done.add(pool.submit(() -> {
                    start.await();
                    ProofStore.Written w = store.write(h, set(h), false);
                    steps.add("told " + w.folder().getFileName());
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        for (String h : hashes) {
            int flushed = steps.indexOf("flushed " + h);
            int placed = steps.indexOf("placed " + h);
            int told = steps.indexOf("told " + h);
            assertThat(flushed).as(h).isNotNegative().isLessThan(placed);
            assertThat(steps.subList(placed, told)).as("the folder flushed after %s was placed, before its writer was told", h)
                    .contains("folder");
            assertThat(steps.stream().filter(("placed " + h)::equals)).as("placed once").hasSize(1);
        }
        assertThat(store.list()).containsExactlyInAnyOrderElementsOf(hashes);
        for (String h : hashes) {
            assertThat(ProofStoreTest.read(root.resolve(h))).isEqualTo(text(set(h)));
        }
        assertThat(tempLeftovers()).isEmpty();
        // the point of it: fewer folder flushes than sets when writers come at once
        assertThat(steps.stream().filter("folder"::equals).count()).isLessThan(writers);
    }

    @Test
    void await_commitsAtMost64SetsAtOnce_640StagedByOneWriter() {
        ProofStore store = new ProofStore(root, new GroupCommit(GroupCommit.MAX_SETS, new Recording()));
        List<String> hashes = hashes(10 * GroupCommit.MAX_SETS);
        List<ProofStore.Staged> staged = new ArrayList<>();
        for (String h : hashes) {
            staged.add(store.stage(h, small(h), false));
        }
        assertThat(store.list()).as("nothing is visible before it is awaited").isEmpty();

        for (ProofStore.Staged s : staged) {
            assertThat(s.await().existing()).isFalse();
        }

        assertThat(groupSizes()).containsOnly(GroupCommit.MAX_SETS).hasSize(10);
        assertThat(store.list()).containsExactlyInAnyOrderElementsOf(hashes);
        assertThat(tempLeftovers()).isEmpty();
    }

    @Test
    void write_commitsAtMost64SetsAtOnce_640ConcurrentWriters() throws Exception {
        AtomicBoolean slept = new AtomicBoolean();
        GroupCommit slowFirst = new GroupCommit(GroupCommit.MAX_SETS, new Recording() {
            @Override
            public void flushed(Path tmp) throws IOException {
                super.flushed(tmp);
                if (!slept.getAndSet(true)) {
                    // the first set's flush takes long, so that the others pile up behind it
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        });
        ProofStore store = new ProofStore(root, slowFirst);
        List<String> hashes = hashes(10 * GroupCommit.MAX_SETS);
        ExecutorService pool = Executors.newFixedThreadPool(128);
        List<Future<ProofStore.Written>> done = new ArrayList<>();
        try {
            for (String h : hashes) {
                done.add(pool.submit(() -> store.write(h, small(h), false)));
            }
            for (Future<ProofStore.Written> f : done) {
                assertThat(f.get(120, TimeUnit.SECONDS).existing()).isFalse();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(groupSizes()).allSatisfy(n -> assertThat(n).isBetween(1, GroupCommit.MAX_SETS));
        assertThat(groupSizes().stream().mapToInt(Integer::intValue).sum()).isEqualTo(hashes.size());
        assertThat(groupSizes()).as("groups of more than one set formed").anySatisfy(n -> assertThat(n).isGreaterThan(1));
        assertThat(store.list()).containsExactlyInAnyOrderElementsOf(hashes);
        assertThat(tempLeftovers()).isEmpty();
    }

    @Test
    void await_storesNothingOfTheFailedSet_flushFailsForOneSetOfAGroup() {
        List<String> hashes = hashes(5);
        String failing = hashes.get(2);
        GroupCommit failOne = new GroupCommit(GroupCommit.MAX_SETS, new Recording() {
            @Override
            public void flushed(Path tmp) throws IOException {
                if (tmp.getFileName().toString().contains(failing)) {
                    throw new IOException("disk gone");
                }
            }
        });
        ProofStore store = new ProofStore(root, failOne);
        List<ProofStore.Staged> staged = new ArrayList<>();
        for (String h : hashes) {
            staged.add(store.stage(h, set(h), false));
        }

        for (int i = 0; i < hashes.size(); i++) {
            ProofStore.Staged s = staged.get(i);
            if (i == 2) {
                assertThatThrownBy(s::await).isInstanceOf(ProofModeException.class)
                        .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.IO))
                        .hasMessageContaining("disk gone");
            } else {
                assertThat(s.await().existing()).isFalse();
            }
        }

        assertThat(store.list()).containsExactlyInAnyOrderElementsOf(hashes.stream().filter(h -> !h.equals(failing)).toList());
        assertThat(root.resolve(failing)).doesNotExist();
        assertThat(tempLeftovers()).isEmpty();
        for (String h : store.list()) {
            assertThat(ProofStoreTest.read(root.resolve(h))).isEqualTo(text(set(h)));
        }
    }

    @Test
    void write_replacesTheSetWhole_existingSetReplacedInAGroup() {
        ProofStore store = new ProofStore(root, new GroupCommit(GroupCommit.MAX_SETS, new Recording()));
        String h = hashes(1).get(0);
        store.write(h, set(h), false);
        Map<String, byte[]> second = set(h);
        second.put(h + ".proof.json", "{\"second\":true}".getBytes(StandardCharsets.UTF_8));

        assertThat(store.write(h, second, true).existing()).isFalse();

        assertThat(ProofStoreTest.read(root.resolve(h))).isEqualTo(text(second));
        try (Stream<Path> s = Files.list(root)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly(h);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private List<Integer> groupSizes() {
        List<Integer> out = new ArrayList<>();
        synchronized (steps) {
            for (String s : steps) {
                if (s.startsWith("group ")) {
                    out.add(Integer.parseInt(s.substring(6)));
                }
            }
        }
        return out;
    }

    private List<String> tempLeftovers() {
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String hashOf(String tmpName) {
        return tmpName.substring(".tmp-".length(), ".tmp-".length() + 64);
    }

    private static List<String> hashes(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Digests.sha256Hex(("media " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static Map<String, String> text(Map<String, byte[]> files) {
        Map<String, String> out = new TreeMap<>();
        files.forEach((name, content) -> out.put(name, new String(content, StandardCharsets.UTF_8)));
        return out;
    }

    /** A set of one file, for the tests of many sets. */
    private static Map<String, byte[]> small(String h) {
        return Map.of(h + ".asc", h.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, byte[]> set(String h) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (String name : List.of(h + ".asc", h + ".proof.json", h + ".proof.json.asc", h + ".proof.csv", h + ".proof.csv.asc",
                "pubkey.asc")) {
            files.put(name, (name + " of " + h).getBytes(StandardCharsets.UTF_8));
        }
        return files;
    }
}
