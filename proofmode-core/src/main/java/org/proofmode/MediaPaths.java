// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;

/**
 * Where each proved media file was on this machine, {@code <home>/media-paths/<sha256>} (owner-only):
 * proofs name their file only (setting {@code context.file-path name}), yet {@code publish HASH}, a queued
 * publish and the watcher still send the media with its proof. It never leaves the home: no bundle, proof
 * or report holds it. A home whose store is encrypted keeps no such list (it would name the files in the
 * clear); there, and for a file moved or changed since, the media is named by its file.
 */
public final class MediaPaths {
    /** The folder under the home. */
    public static final String FOLDER = Home.MEDIA_PATHS.fileName();

    private final Path dir;

    MediaPaths(Path home) {
        this.dir = home.resolve(FOLDER);
    }

    /** Notes where the media of a proof about to be stored is; a note that cannot be written is left out. */
    void remember(Path file, String sha256) {
        if (!Hex.isSha256(sha256)) {
            return;
        }
        try {
            AtomicFiles.ownerOnlyDirectory(dir);
            // Not flushed: a note lost in a crash costs only naming the file instead of its hash.
            Files.write(dir.resolve(sha256.toLowerCase(Locale.ROOT)), file.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // best effort: the proof is what matters
        }
    }

    /**
     * The proof last noted for a file at this path, if any: how a file changed since it was proved is found
     * (its hash names no proof any more). Reads every note once.
     */
    Optional<String> provedAt(Path file) {
        String wanted = file.toAbsolutePath().toString();
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (java.util.stream.Stream<Path> notes = Files.list(dir)) {
            return notes.map(p -> p.getFileName().toString()).filter(Hex::isSha256)
                    .filter(h -> noted(h).map(Path::toString).filter(wanted::equals).isPresent()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Where the media of this proof was when it was proved, if noted here. */
    Optional<Path> noted(String sha256) {
        if (!Hex.isSha256(sha256)) {
            return Optional.empty();
        }
        Path f = dir.resolve(sha256.toLowerCase(Locale.ROOT));
        try {
            if (!Files.isRegularFile(f) || Files.size(f) > 16_384) {
                return Optional.empty();
            }
            Path p = Path.of(Files.readString(f, StandardCharsets.UTF_8));
            return p.isAbsolute() ? Optional.of(p) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
