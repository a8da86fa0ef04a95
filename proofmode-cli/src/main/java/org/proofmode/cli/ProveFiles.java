// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaSniffer;
import org.proofmode.media.MediaType;
import org.proofmode.prove.BatchProver;
import org.proofmode.proof.ProofRecord;

/**
 * The files a {@code prove} command line names, listed: folders walked, each file as it was named and where
 * it is; what cannot be proved said on stderr with its exit code; for {@code --c2pa}, the credentialed
 * copies to prove instead.
 */
final class ProveFiles {
    private ProveFiles() {}

    /**
     * A file to prove.
     *
     * @param file as the command line names it (a file in a named folder: the folder, then its path below)
     * @param path where it is
     * @param explicit named itself, not found in a folder (a file that is not media is then an error)
     * @param size its size when listed
     */
    record Work(Path file, Path path, boolean explicit, long size) {}

    /**
     * The files to prove, and the exit code of what could not be listed.
     *
     * @param work the files, in the order given
     * @param exit the first error's exit code, or OK
     */
    record Listed(List<Work> work, int exit) {
        /** The bytes to read. */
        long bytes() {
            return work.stream().mapToLong(Work::size).sum();
        }
    }

    /** Lists the files the paths name: a missing path, or one that is neither file nor folder, is said on stderr. */
    static Listed list(CliContext ctx, List<Path> paths) throws IOException {
        int exit = ExitCodes.OK;
        List<Work> work = new ArrayList<>();
        for (Path p : paths) {
            Path at = ctx.resolve(p);
            if (!Files.exists(at)) {
                ctx.err().println("proofmode: " + p + ": no such file or folder");
                exit = firstError(exit, ExitCodes.INPUT_MISSING);
            } else if (Files.isDirectory(at)) {
                List<Path> files = BatchProver.filesUnder(at);
                for (Path f : files) {
                    work.add(new Work(p.resolve(at.relativize(f)), f, false, Files.size(f)));
                }
                if (files.isEmpty()) {
                    // Not an error (a drop folder may be empty), but never silence.
                    ctx.err().println("proofmode: " + p + ": no files to prove in this folder");
                }
            } else if (!Files.isRegularFile(at)) {
                // A device never ends and a FIFO can be read only once: neither can be hashed and then described.
                ctx.err().println("proofmode: " + p + ": not a regular file (a device, FIFO or socket); give a media file");
                exit = firstError(exit, ExitCodes.UNSUPPORTED);
            } else {
                work.add(new Work(p, at, true, Files.size(at)));
            }
        }
        return new Listed(work, exit);
    }

    /**
     * Makes the credentialed copies of {@code --c2pa}: each file that takes content credentials is replaced
     * by its copy, one that cannot is proved as it is (said on stderr), one that fails is left out.
     *
     * @param context the context fields a file's manifest records
     * @param fingerprint the device key's fingerprint
     * @param force replace an existing copy
     * @return what to prove, with the first error's exit code
     */
    static Listed credentialed(CliContext ctx, List<Work> work, Function<Path, ProofRecord> context, String fingerprint, C2paSigner signer,
            Optional<TimeStamper> stamper, boolean force) throws IOException {
        int exit = ExitCodes.OK;
        List<Work> out = new ArrayList<>();
        for (Work w : work) {
            try {
                ContentCredentials.Copy c = ContentCredentials.copy(w.path(), f -> context.apply(f).fields(), fingerprint, signer, stamper, force);
                if (c.asItIs().isPresent()) {
                    ctx.err().println("proofmode: " + w.file() + ": " + c.asItIs().get());
                    out.add(w);
                } else {
                    Path named = w.file().resolveSibling(c.file().getFileName());
                    ctx.err().println("proofmode: content credentials: " + named);
                    out.add(new Work(named, c.file(), true, Files.size(c.file())));
                }
            } catch (ProofModeException e) {
                ctx.err().println("proofmode: " + e.getMessage());
                exit = firstError(exit, ExitCodes.of(e.failure()));
            }
        }
        return new Listed(out, exit);
    }

    /** Whether any of the files is a video or audio file (decoded by ffmpeg after it is read). */
    static boolean anyVideoOrAudio(List<Work> work) throws IOException {
        for (Work w : work) {
            Optional<MediaKind> kind = MediaSniffer.sniff(w.path()).map(MediaType::kind);
            if (kind.isPresent() && kind.get() != MediaKind.IMAGE) {
                return true;
            }
        }
        return false;
    }

    /** The exit code so far, or the next one if there was no error yet. */
    static int firstError(int current, int next) {
        return current != ExitCodes.OK ? current : next;
    }
}
