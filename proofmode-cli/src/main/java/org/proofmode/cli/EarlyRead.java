// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.proofmode.prove.Prover;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;

/**
 * The one large media file a {@code prove} or {@code verify} command line names, hashed from the first
 * milliseconds of a fresh process on a thread of its own, while picocli, the settings, the key and the
 * trust anchors are still being loaded: on two cores, about a tenth of a second of a 1 GiB file's proof.
 *
 * <p>Which file is a guess from the raw arguments, before they are parsed: the last argument, or for
 * {@code verify} the one after {@code --media}. The command takes the read only for a file it was going
 * to read anyway, and only if the file is still the one whose read began (same file, size and
 * modification time); otherwise the read is dropped and the file read again as usual. Nothing is
 * written and memory stays one read buffer, so a wrong guess costs only the processor time it used.
 */
final class EarlyRead {
    /** Smaller files are not worth a thread: their hash takes less than the program takes to load. */
    static final long MIN_BYTES = 64L << 20;

    private static final AtomicReference<EarlyRead> STARTED = new AtomicReference<>();

    private final Path file;
    private final BasicFileAttributes before;
    private final CompletableFuture<Prehash> result = new CompletableFuture<>();
    private volatile boolean dropped;
    private long read; // guarded by this
    private StreamSigner.Progress listener = StreamSigner.Progress.NONE; // guarded by this

    private EarlyRead(Path file, BasicFileAttributes before) {
        this.file = file;
        this.before = before;
    }

    /** The reads begun in this process, taken by the command that reads the same file. */
    static Prover.ReadAlready begun() {
        return (file, progress) -> {
            Optional<EarlyRead> r = take(file, progress);
            return r.isPresent() ? Optional.of(r.get().join()) : Optional.empty();
        };
    }

    /**
     * Starts reading the file a {@code prove} or {@code verify} command line names, if it is a regular
     * file of at least {@link #MIN_BYTES}.
     *
     * @param args the raw command line
     * @param cwd the folder relative names are in
     */
    static void start(String[] args, Path cwd) {
        Optional<String> named = guess(args);
        if (named.isEmpty()) {
            return;
        }
        Path p;
        BasicFileAttributes attrs;
        try {
            p = cwd.resolve(named.get()).toAbsolutePath().normalize();
            attrs = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            return; // not a file (or not a path): the command says so itself
        }
        if (!attrs.isRegularFile() || attrs.size() < MIN_BYTES) {
            return;
        }
        EarlyRead r = new EarlyRead(p, attrs);
        Thread t = new Thread(r::run, "proofmode-early-read");
        t.setDaemon(true);
        STARTED.set(r);
        t.start();
    }

    /** The file a command line would read first and whole, from its raw arguments. */
    static Optional<String> guess(String[] args) {
        String command = null;
        for (String a : args) {
            if (!a.startsWith("-")) {
                command = a;
                break;
            }
        }
        if (!"prove".equals(command) && !"verify".equals(command) || args.length < 2) {
            return Optional.empty();
        }
        if (command.equals("verify")) {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--media") && i + 1 < args.length) {
                    return Optional.of(args[i + 1]);
                }
                if (args[i].startsWith("--media=")) {
                    return Optional.of(args[i].substring("--media=".length()));
                }
            }
        }
        String last = args[args.length - 1];
        return last.startsWith("-") || last.equals(command) ? Optional.empty() : Optional.of(last);
    }

    /**
     * Takes the read begun for this file, once: the caller then waits for it with {@link #join}.
     *
     * @param file the file the command is about to read, absolute
     * @param progress told the bytes read so far, then each block
     * @return empty if no read of this file, as it is now, was begun
     */
    static Optional<EarlyRead> take(Path file, StreamSigner.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        EarlyRead r = STARTED.get();
        if (r == null || !r.file.equals(file.toAbsolutePath().normalize()) || !STARTED.compareAndSet(r, null)) {
            return Optional.empty();
        }
        if (!r.unchanged()) {
            r.dropped = true;
            return Optional.empty();
        }
        synchronized (r) {
            r.listener = progress;
            if (r.read > 0) {
                progress.advanced(r.read);
            }
        }
        return Optional.of(r);
    }

    /** Waits for the read to end. */
    Prehash join() throws IOException {
        try {
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw e;
        }
    }

    /** The read as a future, for a command that waits for it on its own terms. */
    CompletableFuture<Prehash> future() {
        return result;
    }

    private boolean unchanged() {
        try {
            BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class);
            return now.isRegularFile() && now.size() == before.size()
                    && now.lastModifiedTime().equals(before.lastModifiedTime())
                    && Objects.equals(now.fileKey(), before.fileKey());
        } catch (IOException e) {
            return false;
        }
    }

    private void run() {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            result.complete(StreamSigner.digest(ch, this::advanced));
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    private void advanced(long bytes) {
        if (dropped) {
            throw new CancellationException("not the file the command reads");
        }
        StreamSigner.Progress to;
        synchronized (this) {
            read += bytes;
            to = listener;
        }
        to.advanced(bytes);
    }
}
