// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Objects;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;

/**
 * Blobs in a folder: {@code <root>/ab/cd/<sha256>}. A blob is flushed to the device and renamed into
 * place, then its folder is flushed, so a crash leaves either the whole blob or none. Names come only
 * from hashes checked to be 64 hex digits, never from a request.
 */
public final class FileBlobStore implements BlobStore {
    private final Path root;

    /** Creates a store in a folder (created on first write). */
    public FileBlobStore(Path root) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    }

    /**
     * A folder for uploads in progress, on the same file system as the blobs. Folders it makes are
     * owner-only; folders that exist keep their permissions.
     */
    public Path incoming() throws IOException {
        return AtomicFiles.privateDirectories(root.resolve("incoming"));
    }

    @Override
    public void put(Path file, String sha256) throws IOException {
        Path target = path(sha256);
        if (Files.exists(target)) {
            Files.deleteIfExists(file);
            return;
        }
        Path dir = AtomicFiles.privateDirectories(target.getParent());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            Files.deleteIfExists(file);
        }
        AtomicFiles.fsyncDirectory(dir);
    }

    @Override
    public void probe() throws IOException {
        Path probe = Files.createTempFile(incoming(), ".ready-", ".probe");
        try {
            Files.write(probe, new byte[] {1}, StandardOpenOption.SYNC);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    @Override
    public boolean exists(String sha256) {
        return Files.isRegularFile(path(sha256));
    }

    @Override
    public InputStream open(String sha256) throws IOException {
        return Files.newInputStream(path(sha256));
    }

    @Override
    public LocalCopy local(String sha256) throws IOException {
        Path p = path(sha256);
        if (!Files.isRegularFile(p)) {
            throw new NoSuchFileException(sha256);
        }
        return new LocalCopy() {
            @Override
            public Path path() {
                return p;
            }

            @Override
            public void close() {
                // the blob itself: nothing to release
            }
        };
    }

    private Path path(String sha256) {
        if (!Hex.isSha256(sha256) || !sha256.equals(sha256.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("not a lower-case SHA-256");
        }
        return root.resolve(sha256.substring(0, 2)).resolve(sha256.substring(2, 4)).resolve(sha256);
    }
}
