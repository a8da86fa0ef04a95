// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where bundles are kept, named by the SHA-256 of their bytes: a local folder ({@link FileBlobStore}) or
 * an S3-compatible bucket ({@link S3BlobStore}).
 */
public interface BlobStore extends AutoCloseable {
    /**
     * Stores a file under its hash and makes it durable before returning; storing the same content twice
     * keeps one copy.
     *
     * @param file a finished file that the caller owns; it may be moved
     * @param sha256 its SHA-256, computed by the caller while receiving it
     * @throws IOException if the blob cannot be made durable
     */
    void put(Path file, String sha256) throws IOException;

    /**
     * Checks that blobs can be written now (readiness): writes, flushes and removes a small probe.
     *
     * @throws IOException if they cannot
     */
    void probe() throws IOException;

    /** Tells whether a blob is stored. */
    boolean exists(String sha256) throws IOException;

    /**
     * Opens a blob.
     *
     * @throws NoSuchFileException if it is not stored
     */
    InputStream open(String sha256) throws IOException;

    /**
     * A local file holding the blob, for readers that need random access (zip); the caller deletes it
     * with {@link LocalCopy#close()} when done.
     */
    LocalCopy local(String sha256) throws IOException;

    /** Releases what the store holds open (connections); a folder holds nothing. */
    @Override
    default void close() {
        // nothing to release
    }

    /** A local file for a blob; closing it releases any temporary copy. */
    interface LocalCopy extends AutoCloseable {
        /** The file. */
        Path path();

        @Override
        void close() throws IOException;
    }
}
