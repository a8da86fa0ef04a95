// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.io.InputStream;

/** One file in a bundle: a zip entry or a file in a folder. */
public interface BundleEntry {
    /** The entry's name within the bundle (for a zip, possibly with folder parts). */
    String name();

    /** The last part of the name. */
    default String fileName() {
        String n = name();
        return n.substring(n.lastIndexOf('/') + 1);
    }

    /** The declared size in bytes, or -1 if unknown. */
    long size();

    /**
     * Opens the content. The stream enforces the bundle's limits and fails with an
     * {@link IOException} when they are exceeded.
     */
    InputStream open() throws IOException;

    /**
     * Reads a small entry (proof record, signature, key) into memory.
     *
     * @param max most bytes accepted
     * @throws IOException if reading fails or the entry is larger than {@code max}
     */
    default byte[] readSmall(long max) throws IOException {
        if (size() > max) {
            throw new IOException(name() + " is larger than " + max + " bytes");
        }
        try (InputStream in = open()) {
            byte[] bytes = in.readNBytes((int) max + 1);
            if (bytes.length > max) {
                throw new IOException(name() + " is larger than " + max + " bytes");
            }
            return bytes;
        }
    }
}
