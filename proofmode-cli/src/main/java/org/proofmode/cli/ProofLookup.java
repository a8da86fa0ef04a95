// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.Hex;

/** Finds a stored proof by media hash or by media file. */
final class ProofLookup {
    /** A stored proof and, when known, the media file it is for. */
    record Found(String sha256, Path folder, Optional<Path> media) {}

    private ProofLookup() {}

    static Found find(ProofMode pm, String arg) {
        Path path = Path.of(arg);
        if (Hex.isSha256(arg) && !Files.exists(path)) {
            String h = arg.toLowerCase(Locale.ROOT);
            Path folder = pm.store().find(h).orElseThrow(() ->
                    new ProofModeException(Failure.INPUT_MISSING, "no proof with hash " + h + " in " + pm.store().root()));
            return new Found(h, folder, recordedMedia(folder, h));
        }
        if (!Files.isRegularFile(path)) {
            throw new ProofModeException(Failure.INPUT_MISSING, arg + ": no such file, and not a proof hash");
        }
        String h;
        try {
            h = Digests.sha256(path);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, arg + ": cannot read: " + e.getMessage(), e);
        }
        Path folder = pm.store().find(h).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                arg + ": not proved yet (run: proofmode prove " + arg + ")"));
        return new Found(h, folder, Optional.of(path));
    }

    /** The proof's record. */
    static ProofRecord record(Path folder, String h) {
        try {
            return ProofJson.read(Files.readAllBytes(folder.resolve(ProofFiles.json(h))), ProofFiles.json(h)).get(0);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read the proof in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The media at the recorded path, if it is still there and unchanged. */
    private static Optional<Path> recordedMedia(Path folder, String h) {
        Optional<Path> p = record(folder, h).get(ProofFields.FILE_PATH).map(Path::of).filter(Files::isRegularFile);
        try {
            return p.isPresent() && Digests.sha256(p.get()).equals(h) ? p : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
