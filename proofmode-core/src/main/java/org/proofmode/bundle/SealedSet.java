// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.IoErrors;

/**
 * A proof set of an encrypted store ({@link SealedSets}): an addition writes the set anew under another
 * random name, which this handle follows.
 */
final class SealedSet implements ProofSet {
    private final SealedSets sets;
    private final String sha256;
    private Path folder;

    SealedSet(SealedSets sets, Path folder, String sha256) {
        this.sets = sets;
        this.folder = folder;
        this.sha256 = sha256;
    }

    @Override
    public String sha256() {
        return sha256;
    }

    @Override
    public synchronized Path folder() {
        return folder;
    }

    /** The folder now, if the set is still there (one grown or replaced since is found again with the identity). */
    private synchronized Optional<Path> current() {
        Optional<Path> now = sets.current(folder, sha256);
        now.ifPresent(f -> folder = f);
        return now;
    }

    @Override
    public boolean has(String name) {
        return current().map(f -> sets.has(f, name)).orElse(false);
    }

    @Override
    public Optional<byte[]> read(String name) {
        return current().flatMap(f -> sets.read(f, name));
    }

    @Override
    public synchronized boolean add(String name, byte[] content, boolean replace) {
        try {
            Optional<Path> now = sets.add(folder, sha256, name, content, replace);
            now.ifPresent(f -> folder = f);
            return now.isPresent();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot add " + name + " to the proof set in " + folder + " ("
                    + IoErrors.describe(e) + ")", e);
        }
    }
}
