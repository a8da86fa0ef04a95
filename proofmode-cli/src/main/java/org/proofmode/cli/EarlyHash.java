// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.proofmode.media.MediaSniffer;
import org.proofmode.prove.HeadStart;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;
import org.proofmode.verify.Targets;

/**
 * The one media file of a {@code verify} ({@code --media}, or a single media PATH), read on its own thread
 * from the start, so that its hashing overlaps with loading keys, trust anchors and the proof; any other
 * file is read when it is asked for.
 */
final class EarlyHash implements Targets.Hashing {
    private final Optional<Path> early;
    private final CompletableFuture<Prehash> hash;

    private EarlyHash(Optional<Path> early, CompletableFuture<Prehash> hash) {
        this.early = early;
        this.hash = hash;
    }

    /** Starts reading the one media file among these paths and {@code media}, if there is one. */
    static EarlyHash start(List<Path> paths, Optional<Path> media) throws IOException {
        if (paths.size() != 1) {
            return new EarlyHash(Optional.empty(), null);
        }
        Path f = media.orElse(paths.get(0));
        if (!Files.isRegularFile(f) || media.isEmpty() && MediaSniffer.sniff(f).isEmpty()) {
            return new EarlyHash(Optional.empty(), null);
        }
        Optional<HeadStart.Read> begun = HeadStart.takeRead(f, StreamSigner.Progress.NONE);
        if (begun.isPresent()) {
            return new EarlyHash(Optional.of(f), begun.get().future());
        }
        return new EarlyHash(Optional.of(f), CompletableFuture.supplyAsync(() -> {
            try {
                return Targets.digest(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> {
            Thread t = new Thread(r, "proofmode-hash");
            t.setDaemon(true);
            t.start();
        }));
    }

    /** The media's SHA-256 state: from the read started early if it was this file, else read now. */
    @Override
    public Prehash hash(Path f) throws IOException {
        if (early.isPresent() && early.get().equals(f)) {
            return HeadStart.Read.join(hash);
        }
        return Targets.digest(f);
    }
}
