// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Files seen but not proved yet, in the order they were seen, with how long each has been unchanged.
 * Used by the watcher's own thread only.
 */
final class Candidates {
    /** How often the watcher looks at its candidates. */
    static final long TICK_MILLIS = 50;
    /** Looking for writers reads every process's open files: at most this often. */
    private static final long WRITER_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How many files beyond the room there is now are looked at in one tick. */
    static final int LOOKAHEAD = 64;

    private final Map<String, Candidate> map = new LinkedHashMap<>();
    private long lastWriterScan = System.nanoTime() - WRITER_SCAN_NANOS;

    /** One file waiting to be complete, or being proved. */
    static final class Candidate {
        long size;
        long mtime;
        long stableSince;
        boolean inFlight;
        /** A look for writers found none since it last changed. */
        boolean noWriter;

        /** Records what a look found; a change starts the wait again. */
        void touch(long newSize, long newMtime) {
            if (size != newSize || mtime != newMtime) {
                size = newSize;
                mtime = newMtime;
                stableSince = System.nanoTime();
                noWriter = false;
            }
        }

        /**
         * Complete when unchanged for the settle time; or, for a file last modified longer ago than that
         * (a file that was there before the watcher started, or moved in whole), once a second look found
         * it unchanged.
         */
        boolean settled(long nowNanos, long settleNanos) {
            long quiet = nowNanos - stableSince;
            if (quiet >= settleNanos) {
                return true;
            }
            long age = System.currentTimeMillis() * 1_000_000L - mtime;
            return quiet >= TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS) && age >= settleNanos;
        }
    }

    Candidate get(String path) {
        return map.get(path);
    }

    void add(String path, long size, long mtime) {
        Candidate c = new Candidate();
        c.size = size;
        c.mtime = mtime;
        c.stableSince = System.nanoTime();
        map.put(path, c);
    }

    void remove(String path) {
        map.remove(path);
    }

    boolean isEmpty() {
        return map.isEmpty();
    }

    int size() {
        return map.size();
    }

    /** A file's attempt ended without a proof: it must be unchanged for the settle time again. */
    void waitAgain(String path) {
        Candidate c = map.get(path);
        if (c != null) {
            c.inFlight = false;
            c.stableSince = System.nanoTime();
            c.noWriter = false;
        }
    }

    /** A file's attempt ended. */
    void landed(String path) {
        Candidate c = map.get(path);
        if (c != null) {
            c.inFlight = false;
        }
    }

    /**
     * Looks at every waiting file that is due and returns those that are complete: settled, and open for
     * writing by no process (those that are have their wait started again). A file found without a writer
     * stays so until it changes; the others wait for the next look at the processes.
     *
     * @param settleNanos the settle time
     * @param due whether a file may be tried now (not waiting out a backoff)
     * @param room how many files can be taken now; files further back are looked at when their turn comes
     */
    List<String> ready(long settleNanos, Predicate<String> due, int room) {
        long nowNanos = System.nanoTime();
        List<String> ready = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        int looked = 0;
        for (Map.Entry<String, Candidate> e : map.entrySet()) {
            // Beyond the room there is now, a few more are looked at, so that one look at the processes
            // clears files for the next ticks too: a burst or a catch-up never waits on that look.
            if (ready.size() >= room || looked >= room + LOOKAHEAD) {
                break;
            }
            Candidate c = e.getValue();
            if (c.inFlight || !due.test(e.getKey())) {
                continue;
            }
            looked++;
            try {
                BasicFileAttributes a = Files.readAttributes(Path.of(e.getKey()), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                c.touch(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
            } catch (IOException x) {
                ready.add(e.getKey()); // gone or unreadable: the attempt finds out and says so
                continue;
            }
            if (c.settled(nowNanos, settleNanos)) {
                if (!c.noWriter) {
                    unknown.add(e.getKey());
                } else if (ready.size() < room) {
                    ready.add(e.getKey());
                }
            }
        }
        if (unknown.isEmpty() || nowNanos - lastWriterScan < WRITER_SCAN_NANOS) {
            return ready;
        }
        lastWriterScan = nowNanos;
        Set<Path> asPaths = new HashSet<>();
        unknown.forEach(r -> asPaths.add(Path.of(r)));
        Set<Path> written = OpenWriters.among(asPaths);
        for (String r : unknown) {
            Candidate c = map.get(r);
            if (written.contains(Path.of(r))) {
                c.stableSince = nowNanos;
            } else {
                c.noWriter = true;
                if (ready.size() < room) {
                    ready.add(r);
                }
            }
        }
        return ready;
    }
}
