// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * One creator at a time in a ProofMode home: an exclusive lock on {@code PROOFMODE_HOME/home.lock}
 * (between processes, released by the operating system however a process dies) and a lock per home within
 * this process (a file lock is held by a process, not a thread). Whoever creates something that is made
 * once (the device key, the local C2PA CA, the identifier secret, default settings) checks for it and
 * makes it while holding this lock, so that every racer uses the one that was made.
 */
public final class HomeLock {
    /** The lock file's name under the home. */
    public static final String FILE = Home.HOME_LOCK.path();

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private HomeLock() {}

    /**
     * Runs an action while holding the home's lock; waits for another holder to finish first. Re-entrant
     * on one thread.
     *
     * @param home the ProofMode home (created owner-only if missing)
     * @param action what to do under the lock
     * @return the action's result
     * @throws ProofModeException with {@link Failure#IO} if the lock file cannot be made or locked
     */
    public static <T> T holding(Path home, Supplier<T> action) {
        Path file = home.toAbsolutePath().normalize().resolve(FILE);
        ReentrantLock local = IN_PROCESS.computeIfAbsent(file, f -> new ReentrantLock());
        local.lock();
        try {
            if (local.getHoldCount() > 1) {
                return action.get();
            }
            try (FileChannel ch = open(file)) {
                FileLock l = ch.lock();
                try {
                    return action.get();
                } finally {
                    l.release();
                }
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot lock " + file + ": " + e.getMessage(), e);
            }
        } finally {
            local.unlock();
        }
    }

    /** As {@link #holding(Path, Supplier)}, for an action without a result. */
    public static void run(Path home, Runnable action) {
        holding(home, () -> {
            action.run();
            return null;
        });
    }

    private static FileChannel open(Path file) throws IOException {
        AtomicFiles.privateDirectories(file.getParent());
        try {
            return FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
    }
}
