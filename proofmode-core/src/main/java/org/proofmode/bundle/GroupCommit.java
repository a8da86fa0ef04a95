// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.proofmode.util.AtomicFiles;

/**
 * Makes proof sets durable in groups, with the guarantee of one set at a time: the sets that writers hand
 * over while groups are being committed form the next group (at most {@link #MAX_SETS} sets, at most
 * {@link #MAX_GROUPS_AT_ONCE} groups at a time); one writer commits it for all: every file and temporary
 * folder of every set flushed at the same time, then each set renamed into place, then each store folder
 * flushed once, and only then is any writer of the group told its set is stored. Nothing is visible
 * before its bytes are on the device; a crash leaves every set whole or absent. No set waits for a timer:
 * a set waits at most for the groups being committed when it came, and its own.
 */
final class GroupCommit {
    /** The most sets committed together. */
    static final int MAX_SETS = 64;

    /**
     * Groups committed at the same time: one flushes its files while the one before renames its sets and
     * flushes their folder, so that the disk is never idle while sets wait.
     */
    static final int MAX_GROUPS_AT_ONCE = 2;

    /** One for the whole process: writers into any store share their groups. */
    static final GroupCommit SHARED = new GroupCommit(MAX_SETS, Phases.NONE);

    /** What a commit did, step by step: for tests of the order and the grouping. */
    interface Phases {
        /** Observes nothing. */
        Phases NONE = new Phases() { };

        /** A group of this many sets begins. */
        default void group(int sets) { }

        /** Every file of the set in this temporary folder, and the folder, were flushed; may throw to fail the set. */
        default void flushed(Path tmp) throws IOException { }

        /** A set was renamed into place. */
        default void placed(Path folder) { }

        /** A store folder's entries were flushed. */
        default void folderFlushed(Path root) { }
    }

    /** Where a set went, and an older set moved aside that may go once the new one is durable. */
    record Placed(ProofStore.Written written, Optional<Path> aside) {
        Placed {
            Objects.requireNonNull(written, "written");
            Objects.requireNonNull(aside, "aside");
        }
    }

    /** Renames a flushed set into place. */
    @FunctionalInterface
    interface Placing {
        Placed place() throws IOException;
    }

    private static final class Pending {
        final Path root;
        final Path tmp;
        final List<FileChannel> open;
        final Placing placing;
        Placed placed;
        IOException failure;
        boolean taken;
        boolean done;

        Pending(Path root, Path tmp, List<FileChannel> open, Placing placing) {
            this.root = root;
            this.tmp = tmp;
            this.open = open;
            this.placing = placing;
        }
    }

    private final int maxSets;
    private final Phases phases;
    private final Deque<Pending> waiting = new ArrayDeque<>();
    /** Groups being committed now. */
    private int committing;

    GroupCommit(int maxSets, Phases phases) {
        if (maxSets < 1) {
            throw new IllegalArgumentException("maxSets must be at least 1");
        }
        this.maxSets = maxSets;
        this.phases = Objects.requireNonNull(phases, "phases");
    }

    /**
     * Hands over a written, not yet flushed set: it is committed with the next group, by whichever writer
     * {@linkplain #await awaits} first.
     *
     * @param root the store folder the set goes into
     * @param tmp the set's temporary folder in {@code root}
     * @param open the set's files and folder, open (closed by the commit, whatever happens)
     * @param placing renames the set into place, once flushed
     * @return the set, to {@link #await}
     */
    Ticket enqueue(Path root, Path tmp, List<FileChannel> open, Placing placing) {
        Pending p = new Pending(root, tmp, open, placing);
        synchronized (this) {
            waiting.addLast(p);
        }
        return new Ticket(p);
    }

    /** A set handed over, to await. */
    static final class Ticket {
        private final Pending pending;

        private Ticket(Pending pending) {
            this.pending = pending;
        }
    }

    /**
     * Returns once the set is durable in place: committed on this thread, with the sets of other writers
     * waiting, or by another writer's commit.
     *
     * @throws IOException if the set could not be flushed or placed; it is then not in place
     */
    Placed await(Ticket ticket) throws IOException {
        Pending mine = ticket.pending;
        boolean interrupted = false;
        try {
            while (true) {
                List<Pending> group;
                synchronized (this) {
                    while (!mine.done && (mine.taken || committing >= MAX_GROUPS_AT_ONCE)) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            // the set is in a group's hands: wait for it, and pass the interrupt on after
                            interrupted = true;
                        }
                    }
                    if (mine.done) {
                        return result(mine);
                    }
                    committing++;
                    group = new ArrayList<>(Math.min(maxSets, waiting.size()));
                    while (group.size() < maxSets && !waiting.isEmpty()) {
                        Pending p = waiting.removeFirst();
                        p.taken = true;
                        group.add(p);
                    }
                }
                try {
                    run(group);
                } finally {
                    synchronized (this) {
                        for (Pending p : group) {
                            if (!p.done) {
                                p.failure = new IOException("the group commit ended before this set was stored");
                                p.done = true;
                            }
                        }
                        committing--;
                        notifyAll();
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Placed result(Pending p) throws IOException {
        if (p.failure != null) {
            throw p.failure;
        }
        return p.placed;
    }

    private void run(List<Pending> group) {
        phases.group(group.size());
        List<List<FileChannel>> open = new ArrayList<>(group.size());
        for (Pending p : group) {
            open.add(p.open);
        }
        List<Optional<IOException>> flushed;
        try {
            flushed = AtomicFiles.force(open);
        } catch (InterruptedIOException e) {
            flushed = group.stream().map(p -> Optional.of((IOException) e)).toList();
        }
        for (int i = 0; i < group.size(); i++) {
            Pending p = group.get(i);
            try {
                AtomicFiles.closeAll(p.open);
            } catch (IOException e) {
                p.failure = e;
            }
            if (flushed.get(i).isPresent()) {
                p.failure = flushed.get(i).get();
            }
            if (p.failure == null) {
                try {
                    phases.flushed(p.tmp);
                } catch (IOException e) {
                    p.failure = e;
                }
            }
        }
        Set<Path> roots = new LinkedHashSet<>();
        for (Pending p : group) {
            if (p.failure != null) {
                continue;
            }
            try {
                p.placed = p.placing.place();
                if (!p.placed.written().existing()) {
                    phases.placed(p.placed.written().folder());
                    roots.add(p.root);
                }
            } catch (IOException e) {
                p.failure = e;
            }
        }
        for (Path root : roots) {
            AtomicFiles.fsyncDirectory(root);
            phases.folderFlushed(root);
        }
        for (Pending p : group) {
            if (p.placed != null && p.placed.aside().isPresent()) {
                try {
                    AtomicFiles.deleteTree(p.placed.aside().get());
                } catch (IOException e) {
                    // left for ProofStore.recover(), which sees the new set in place and removes it
                }
            }
        }
        synchronized (this) {
            for (Pending p : group) {
                p.done = true;
            }
        }
    }
}
