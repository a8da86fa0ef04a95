// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.IoErrors;

/** A proof set in a plain folder: each file added is written atomically beside the others. */
final class FolderSet implements ProofSet {
    private final Path folder;
    private final String sha256;

    FolderSet(Path folder, String sha256) {
        this.folder = folder.toAbsolutePath().normalize();
        this.sha256 = sha256;
    }

    @Override
    public String sha256() {
        return sha256;
    }

    @Override
    public Path folder() {
        return folder;
    }

    @Override
    public boolean has(String name) {
        return Files.isRegularFile(folder.resolve(name));
    }

    @Override
    public Optional<byte[]> read(String name) {
        Path p = folder.resolve(name);
        try {
            return Optional.of(Files.readAllBytes(p));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean add(String name, byte[] content, boolean replace) {
        Path p = folder.resolve(name);
        if (!Files.isDirectory(folder)) {
            throw new ProofModeException(Failure.INPUT_MISSING, folder + ": the proof set is no longer there");
        }
        try {
            AtomicFiles.write(p, content, replace, false);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + p + " (" + IoErrors.describe(e) + ")", e);
        }
    }
}
