// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Crash-safe file writes: content goes to a temporary name in the target folder, is flushed to the
 * device, then renamed into place, so a reader sees the old file, the new file, or nothing.
 */
public final class AtomicFiles {
    /** Prefix of temporary names; readers of a folder skip entries that start with it. */
    public static final String TEMP_PREFIX = ".tmp-";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");

    /** Writes content into a stream. */
    @FunctionalInterface
    public interface Content {
        /** Writes the whole content. */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Threads that flush files while their writer flushes another; when all are busy the writer flushes
     * the file itself.
     */
    private static final ExecutorService FLUSHERS = new ThreadPoolExecutor(0, 64, 10, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "proofmode-flush");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.CallerRunsPolicy());

    private AtomicFiles() {}

    /**
     * Writes a file atomically.
     *
     * @param target the final path
     * @param content what to write
     * @param replace whether an existing target may be replaced
     * @param ownerOnly whether the file is readable by its owner only
     * @throws FileAlreadyExistsException if the target exists and {@code replace} is false
     * @throws IOException if writing fails; the target is then untouched
     */
    public static void write(Path target, Content content, boolean replace, boolean ownerOnly) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        privateDirectories(dir);
        if (!replace && Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Path tmp = dir.resolve(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                 OutputStream out = Channels.newOutputStream(ch)) {
                if (ownerOnly) {
                    restrict(tmp, false);
                }
                content.writeTo(out);
                out.flush();
                ch.force(true);
            }
            if (replace) {
                moveAtomic(tmp, target, true);
            } else {
                linkNew(tmp, target);
            }
            fsyncDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Writes bytes atomically; see {@link #write(Path, Content, boolean, boolean)}. */
    public static void write(Path target, byte[] bytes, boolean replace, boolean ownerOnly) throws IOException {
        write(target, out -> out.write(bytes), replace, ownerOnly);
    }

    /**
     * Creates files with the given contents in a folder and flushes them, and the folder's entries, to the
     * device. The flushes run at the same time, so that the file system can commit them together instead
     * of one after another.
     *
     * @param dir the folder
     * @param files the new files' names and contents
     * @throws FileAlreadyExistsException if a file exists
     * @throws IOException if writing or flushing fails; files already created are left for the caller
     */
    public static void writeNewDurably(Path dir, Map<String, byte[]> files) throws IOException {
        List<FileChannel> open = writeNew(dir, files);
        try {
            forceAll(open);
        } finally {
            closeAll(open);
        }
    }

    /**
     * Creates files with the given contents in a folder, not yet flushed: returns them open, and the folder
     * (where the platform can open one), for {@link #force} and then {@link #closeAll}.
     *
     * @param dir the folder
     * @param files the new files' names and contents
     * @throws FileAlreadyExistsException if a file exists
     * @throws IOException if writing fails; what was opened is closed, files already created are left for
     *     the caller
     */
    public static List<FileChannel> writeNew(Path dir, Map<String, byte[]> files) throws IOException {
        List<FileChannel> open = new ArrayList<>(files.size() + 1);
        boolean written = false;
        try {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path p = dir.resolve(f.getKey());
                if (!dir.equals(p.getParent())) {
                    throw new IllegalArgumentException("not a plain file name: " + f.getKey());
                }
                FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                open.add(ch);
                ByteBuffer buf = ByteBuffer.wrap(f.getValue());
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
            try {
                open.add(FileChannel.open(dir, StandardOpenOption.READ));
            } catch (IOException | UnsupportedOperationException e) {
                // Some platforms cannot open a folder to sync it; the rename that follows is still atomic.
            }
            written = true;
            return open;
        } finally {
            if (!written) {
                closeAll(open);
            }
        }
    }

    /** Closes files; throws the last failure once all were tried. */
    public static void closeAll(List<FileChannel> open) throws IOException {
        IOException closing = null;
        for (FileChannel ch : open) {
            try {
                ch.close();
            } catch (IOException e) {
                closing = e;
            }
        }
        if (closing != null) {
            throw closing;
        }
    }

    private static void forceAll(List<FileChannel> channels) throws IOException {
        Optional<IOException> failed = force(List.of(channels)).get(0);
        if (failed.isPresent()) {
            throw failed.get();
        }
    }

    /**
     * Flushes groups of open files to the device, all at the same time (the file system commits what is
     * flushed together in one journal commit), and says for each group whether all its files were flushed.
     *
     * @param groups the open files, by group
     * @return for each group, in order, the first failure to flush one of its files, if any
     * @throws InterruptedIOException if interrupted while waiting for the flushes
     */
    public static List<Optional<IOException>> force(List<List<FileChannel>> groups) throws InterruptedIOException {
        List<List<Future<?>>> others = new ArrayList<>(groups.size());
        List<IOException> failed = new ArrayList<>(groups.size());
        FileChannel mine = null;
        for (List<FileChannel> group : groups) {
            List<Future<?>> futures = new ArrayList<>(group.size());
            for (FileChannel ch : group) {
                if (mine == null) {
                    mine = ch;
                    continue;
                }
                futures.add(FLUSHERS.submit(() -> {
                    ch.force(true);
                    return null;
                }));
            }
            others.add(futures);
            failed.add(null);
        }
        for (int g = 0; g < groups.size(); g++) {
            if (mine != null && groups.get(g).contains(mine)) {
                try {
                    mine.force(true);
                } catch (IOException e) {
                    failed.set(g, e);
                }
            }
        }
        boolean interrupted = false;
        for (int g = 0; g < groups.size(); g++) {
            for (Future<?> f : others.get(g)) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (failed.get(g) == null) {
                        failed.set(g, e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while flushing files to disk");
        }
        return failed.stream().map(Optional::ofNullable).toList();
    }

    /** Flushes a folder's entries to the device, where the platform allows it. */
    public static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Some platforms cannot open or sync a folder; the rename is still atomic there.
        }
    }

    /**
     * Gives a complete file its final name unless that name exists, in one step: a hard link fails if the
     * target exists (a rename would replace it), so of two writers racing for one name the first wins and
     * the second is told, never overwriting what the first may already have read.
     */
    private static void linkNew(Path tmp, Path target) throws IOException {
        try {
            Files.createLink(target, tmp);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            // No hard links here: the re-check right before the rename narrows the race to a moment.
            if (Files.exists(target)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            moveAtomic(tmp, target, false);
        }
    }

    /** Renames atomically; replaces the target only when asked. */
    public static void moveAtomic(Path from, Path to, boolean replace) throws IOException {
        try {
            if (replace) {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot rename atomically on this file system: " + to, e);
        }
    }

    /** Makes a file or folder accessible to its owner only, where the file system has POSIX permissions. */
    public static void restrict(Path path, boolean directory) throws IOException {
        try {
            Files.setPosixFilePermissions(path, directory ? OWNER_ONLY_DIR : OWNER_ONLY);
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: nothing to restrict with.
        }
    }

    /**
     * Creates a folder and its missing parents, each one it creates accessible to its owner only (proofs,
     * settings and keys say where and with what a person worked). Folders that exist keep their permissions.
     */
    public static Path privateDirectories(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        while (!missing.isEmpty()) {
            Path p = missing.pop();
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
            } catch (UnsupportedOperationException e) {
                Files.createDirectories(p);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) {
                    throw e;
                }
            }
        }
        return dir;
    }

    /**
     * Creates a new, empty file readable and writable by its owner only (where the file system has POSIX
     * permissions), with its missing folders owner-only too.
     *
     * @throws FileAlreadyExistsException if it exists
     */
    public static Path createOwnerOnlyFile(Path file) throws IOException {
        privateDirectories(file.toAbsolutePath().getParent());
        try {
            return Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (UnsupportedOperationException e) {
            return Files.createFile(file);
        }
    }

    /** Creates a folder (and its missing parents, see {@link #privateDirectories}) accessible to its owner only. */
    public static Path ownerOnlyDirectory(Path dir) throws IOException {
        privateDirectories(dir);
        restrict(dir, true);
        return dir;
    }

    /** Deletes a folder tree, ignoring entries that vanish meanwhile. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
