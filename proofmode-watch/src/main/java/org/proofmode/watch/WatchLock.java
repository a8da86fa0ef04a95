// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;

/**
 * One watcher per ProofMode home: an exclusive lock on {@code PROOFMODE_HOME/watch.lock}, held while the
 * watcher runs and released by the operating system when its process dies, however it dies.
 */
public final class WatchLock implements AutoCloseable {
    /** The lock file's name under the home. */
    public static final String FILE = Home.WATCH_LOCK.path();

    private final FileChannel channel;
    private final FileLock lock;

    private WatchLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock, or says that another watcher has it.
     *
     * @throws ProofModeException with {@link Failure#IO} if another watcher runs on this home or the lock
     *     file cannot be made
     */
    public static WatchLock take(Path home) {
        return tryTake(home).orElseThrow(() -> new ProofModeException(Failure.IO,
                "another watcher is running on " + home + " (see: proofmode status)"));
    }

    /** Tells whether a watcher holds the lock of this home now. */
    public static boolean held(Path home) {
        Path file = home.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        // Asked without writing anything: a shared lock on a read-only channel conflicts with the watcher's
        // exclusive one, and works on a read-only home too.
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock l = ch.tryLock(0, Long.MAX_VALUE, true);
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Optional<WatchLock> tryTake(Path home) {
        FileChannel ch = null;
        try {
            AtomicFiles.privateDirectories(home);
            ch = FileChannel.open(home.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l == null) {
                ch.close();
                return Optional.empty();
            }
            return Optional.of(new WatchLock(ch, l));
        } catch (OverlappingFileLockException e) {
            closeQuietly(ch);
            return Optional.empty();
        } catch (IOException e) {
            closeQuietly(ch);
            throw new ProofModeException(Failure.IO, "cannot lock " + home.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // nothing was locked
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }
}
