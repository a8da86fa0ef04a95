// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;

/**
 * Makes a proof store encrypted: its marker written, then every plain set moved into the sealed layout,
 * each sealed and flushed before its plain folder is removed (a crash leaves a set in both forms, never in
 * none; running it again finishes).
 */
public final class StoreEncryption {
    private StoreEncryption() {}

    /**
     * Writes the marker that says the store in this folder is encrypted ({@link ProofStore#ENCRYPTED_MARKER}).
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public static void mark(Path root) {
        try {
            AtomicFiles.privateDirectories(root);
            AtomicFiles.write(root.resolve(ProofStore.ENCRYPTED_MARKER), new byte[0], true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + root.resolve(ProofStore.ENCRYPTED_MARKER) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Seals the plain sets left in an encrypted store's folder: each is written sealed, then its plain folder
     * removed.
     *
     * @param sealed the encrypted store, opened with its identity or at least its recipient
     * @return how many were sealed
     * @throws ProofModeException with {@link Failure#IO} if a set cannot be written or its plain folder removed
     */
    public static int sealPlainSets(ProofStore sealed) {
        ProofStore plain = new ProofStore(sealed.root());
        int n = 0;
        for (String h : plain.list()) {
            Map<String, byte[]> files = plain.files(h).orElse(Map.of());
            if (!files.isEmpty()) {
                sealed.write(h, files, false);
            }
            try {
                AtomicFiles.deleteTree(plain.folder(h));
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot remove " + plain.folder(h) + ": " + e.getMessage(), e);
            }
            n++;
        }
        return n;
    }
}
