// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSignature;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofCsv;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;

/**
 * A proof's head start: the work of proving that is begun before its result is needed, so that a
 * fresh process on two cores waits for as little as possible. Everything in proving that overlaps
 * with something else is here, and {@link Prover#prove} reads as its steps:
 *
 * <ol>
 *   <li><b>early read</b> ({@link #beginRead}, {@link #readsBegun}): the one large file a command line
 *       names is hashed from the process's first milliseconds, while the rest of the program loads; the
 *       prover takes that read only if the file is still the one whose read began (same file, size and
 *       modification time); otherwise it is dropped, and a wrong guess costs only processor time;
 *   <li><b>unlock start</b> ({@link Unlock}, {@link UnlockingKey}): the device key is unlocked in
 *       parallel with hashing, started once the hashing is warm, and each proof waits for the key only
 *       when it is ready to be signed;
 *   <li><b>early context</b> ({@link Context}): a large file's context, or a command's first while its
 *       key is still being unlocked, is taken on another thread while the file is hashed;
 *   <li><b>warm-up</b>: that early context is written once as JSON and CSV and thrown away, so that the
 *       writers are loaded meanwhile instead of after the hash.
 * </ol>
 *
 * None of it changes what a proof holds: each piece falls back to doing its work when it is needed.
 */
public final class HeadStart {
    /**
     * Files at least this large have their context taken while they are hashed; smaller ones after, so
     * that a file already proved costs no more than its hash.
     */
    static final long EARLY_CONTEXT_BYTES = 64L << 20;

    /** Smaller files are not read early: their hash takes less than the program takes to load. */
    public static final long EARLY_READ_BYTES = 64L << 20;

    private static final ExecutorService CONTEXT = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "proofmode-context");
        t.setDaemon(true);
        return t;
    });

    private static final AtomicReference<Read> STARTED = new AtomicReference<>();

    private HeadStart() {}

    /**
     * Starts reading a file on a thread of its own, if it is a regular file of at least
     * {@link #EARLY_READ_BYTES}; the command that reads it takes the read with {@link #takeRead}.
     * Nothing is written and memory stays one read buffer.
     *
     * @param file the file a command line names, absolute
     */
    public static void beginRead(Path file) {
        Path p = file.toAbsolutePath().normalize();
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            return; // not a file: the command says so itself
        }
        if (!attrs.isRegularFile() || attrs.size() < EARLY_READ_BYTES) {
            return;
        }
        Read r = new Read(p, attrs);
        Thread t = new Thread(r::run, "proofmode-early-read");
        t.setDaemon(true);
        STARTED.set(r);
        t.start();
    }

    /** The reads begun in this process, for a prover that reads the same file. */
    public static Prover.ReadAlready readsBegun() {
        return (file, progress) -> {
            Optional<Read> r = takeRead(file, progress);
            return r.isPresent() ? Optional.of(r.get().join()) : Optional.empty();
        };
    }

    /**
     * Takes the read begun for this file, once: the caller then waits for it.
     *
     * @param file the file the command is about to read
     * @param progress told the bytes read so far, then each block
     * @return empty if no read of this file, as it is now, was begun
     */
    public static Optional<Read> takeRead(Path file, StreamSigner.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        Read r = STARTED.get();
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

    /** A read of one file begun early (see {@link #beginRead}). */
    public static final class Read {
        private final Path file;
        private final BasicFileAttributes before;
        private final CompletableFuture<Prehash> result = new CompletableFuture<>();
        private volatile boolean dropped;
        private long read; // guarded by this
        private StreamSigner.Progress listener = StreamSigner.Progress.NONE; // guarded by this

        private Read(Path file, BasicFileAttributes before) {
            this.file = file;
            this.before = before;
        }

        /**
         * Waits for the read to end.
         *
         * @throws IOException if the read failed
         */
        public Prehash join() throws IOException {
            return join(result);
        }

        /**
         * Waits for a hash being read on another thread (this one, or a command's own); rethrows the
         * {@link IOException} that ended it.
         */
        public static Prehash join(CompletableFuture<Prehash> reading) throws IOException {
            try {
                return reading.join();
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
        public CompletableFuture<Prehash> future() {
            return result;
        }

        private boolean unchanged() {
            try {
                BasicFileAttributes now = Files.readAttributes(file, BasicFileAttributes.class);
                return now.isRegularFile() && now.size() == before.size() && now.lastModifiedTime().equals(before.lastModifiedTime())
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

    /**
     * When to start unlocking the key for a command that hashes at least {@link #LARGE_WORK} bytes of
     * media: once its first {@link #WARM_BYTES} are hashed, or the key is asked for, or after
     * {@link #LATEST_START_MS} at most. On two cores, an unlock started at once competes with the
     * hashing thread (and with the compiler, which has yet to compile SHA-256 to the processor's own
     * instructions) for the first few hundred milliseconds; started later, its own SHA-256 (the
     * passphrase's iterated derivation) runs compiled, and it still ends long before a large file's hash.
     */
    public static final class Unlock {
        static final long LARGE_WORK = 256L << 20;
        static final long WARM_BYTES = 32L << 20;
        static final long LATEST_START_MS = 300;

        private final CompletableFuture<Void> start = new CompletableFuture<>();
        private final AtomicLong hashed = new AtomicLong();

        /**
         * Starts at once for a small amount of work, else on the first of the events above.
         *
         * @param totalBytes the bytes of media the command is about to hash
         */
        public Unlock(long totalBytes) {
            if (totalBytes < LARGE_WORK) {
                start.complete(null);
            } else {
                start.completeOnTimeout(null, LATEST_START_MS, TimeUnit.MILLISECONDS);
            }
        }

        /** Completes when the unlock is to start. */
        public CompletableFuture<Void> future() {
            return start;
        }

        /** Counts hashed bytes; starts the unlock once enough were hashed. */
        public void hashed(long bytes) {
            if (!start.isDone() && hashed.addAndGet(bytes) >= WARM_BYTES) {
                start.complete(null);
            }
        }

        /** Starts the unlock now (the key is needed, or the command ends). */
        public void now() {
            start.complete(null);
        }

        /**
         * The key for a prover: asking for it starts the unlock now, then waits for it.
         *
         * @param key the unlock, begun on {@link #future()}
         * @return gives the key; throws the {@link ProofModeException} that the unlock failed with
         */
        public Supplier<SigningKey> whenAsked(CompletableFuture<SigningKey> key) {
            Objects.requireNonNull(key, "key");
            return () -> {
                now();
                return join(key);
            };
        }

        /**
         * Waits for a key being unlocked (or another secret unlocked with it); rethrows the
         * {@link ProofModeException} that says why it could not be had.
         */
        public static <T> T join(CompletableFuture<T> unlocking) {
            try {
                return unlocking.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof ProofModeException pme) {
                    throw pme;
                }
                throw e;
            }
        }

        /**
         * Starts the unlock now and waits for it to end, however it ends: for a command that stops before it
         * proves anything, so that nothing of it still writes to the home after it has answered.
         *
         * @param key the unlock, begun on {@link #future()}
         */
        public void settle(CompletableFuture<?> key) {
            now();
            key.handle((k, x) -> null).join();
        }
    }

    /** The device key, maybe still being unlocked, remembered once it was had: whether getting it may block. */
    static final class UnlockingKey {
        private final Supplier<SigningKey> source;
        private volatile SigningKey value;

        UnlockingKey(Supplier<SigningKey> source) {
            this.source = Objects.requireNonNull(source, "key");
        }

        UnlockingKey(SigningKey unlocked) {
            Objects.requireNonNull(unlocked, "key");
            this.source = () -> unlocked;
            this.value = unlocked;
        }

        SigningKey get() {
            SigningKey v = value;
            if (v == null) {
                v = Objects.requireNonNull(source.get(), "key");
                value = v;
            }
            return v;
        }

        boolean ready() {
            return value != null;
        }
    }

    /** What a proof is signed with: the key, the proof's time, and its context (taken early or now). */
    record Signing(SigningKey key, Instant time, CompletableFuture<ProofRecord.Builder> pending) {
        /** The context, waited for; rethrows why the sources failed. */
        ProofRecord.Builder context() {
            try {
                return pending.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }
    }

    /**
     * The context of one file's proof: begun while the file is hashed if it is large, or if the key is
     * still being unlocked (a command's first proof, whose first readings and writers a fresh process
     * would otherwise wait for after the hash); else taken when the hash is known.
     */
    static final class Context {
        private final Path path;
        private final MediaType type;
        private final long sizeBefore;
        private final boolean large;
        private final Function<MediaFile, ProofRecord.Builder> sources;
        private final Optional<CompletableFuture<ProofRecord.Builder>> early;

        private Context(Path path, MediaType type, long sizeBefore, boolean large, Function<MediaFile, ProofRecord.Builder> sources,
                Optional<CompletableFuture<ProofRecord.Builder>> early) {
            this.path = path;
            this.type = type;
            this.sizeBefore = sizeBefore;
            this.large = large;
            this.sources = sources;
            this.early = early;
        }

        /**
         * Begins taking the context of a file about to be hashed, where that is worth it.
         *
         * @param path the file, absolute
         * @param type what it is
         * @param size its size before it is read
         * @param clock the proof's clock, read only if the context is begun now
         * @param key the prover's key
         * @param sources runs the metadata sources for a file
         */
        static Context begin(Path path, MediaType type, long size, Clock clock, UnlockingKey key,
                Function<MediaFile, ProofRecord.Builder> sources) {
            boolean large = size >= EARLY_CONTEXT_BYTES;
            if (!large && key.ready()) {
                return new Context(path, type, size, false, sources, Optional.empty());
            }
            MediaFile media = new MediaFile(path, type, size, seconds(clock));
            return new Context(path, type, size, large, sources, Optional.of(CompletableFuture.supplyAsync(() -> {
                ProofRecord.Builder b = sources.apply(media);
                // The record is written once the hash is known; writing it once now, thrown away, loads
                // the writers meanwhile instead of after the hash, where a fresh process would wait for it.
                ProofRecord draft = b.build();
                ProofJson.write(draft);
                ProofCsv.write(draft);
                return b;
            }, CONTEXT)));
        }

        /**
         * Once the file was hashed: waits for the key and settles the proof's time and context. The context
         * is taken while the key is still being unlocked, or on this thread when the key is at hand. A key
         * made by this command after the file was read gives the proof a time no earlier than the key.
         *
         * @param file the file as the caller named it, for messages
         * @param sizeRead the bytes the hash covers
         * @param key the prover's key; may block
         * @param clock the proof's clock
         * @throws ProofModeException with {@link Failure#IO} if a large file changed size while it was read
         */
        Signing signing(Path file, long sizeRead, UnlockingKey key, Clock clock) {
            Optional<CompletableFuture<ProofRecord.Builder>> taken = early;
            if (taken.isPresent() && sizeRead != sizeBefore) {
                if (large) {
                    throw new ProofModeException(Failure.IO, file + ": changed while it was being read (" + sizeBefore
                            + " bytes, then " + sizeRead + "); prove it again once it is complete");
                }
                taken = Optional.empty(); // taken again below, with the size that was read
            }
            boolean keyAtHand = key.ready();
            Instant now = seconds(clock);
            MediaFile media = new MediaFile(path, type, sizeRead, now);
            CompletableFuture<ProofRecord.Builder> pending = taken.orElseGet(() -> keyAtHand
                    ? CompletableFuture.completedFuture(sources.apply(media))
                    : CompletableFuture.supplyAsync(() -> sources.apply(media), CONTEXT));
            SigningKey signer = key.get();
            // A key had before the time was read was made, self-signatures included, before it too.
            Instant keyMade = keyAtHand ? now : validFrom(signer);
            if (now.isBefore(keyMade)) {
                // The key was made by this command after the file was read: no signature may predate its key
                // or its self-signatures (an RSA key's are made seconds after its creation time), so the proof
                // takes the time now, and the context is taken again with it.
                Instant later = seconds(clock);
                now = later.isBefore(keyMade) ? keyMade : later;
                if (!large) {
                    pending = CompletableFuture.completedFuture(sources.apply(new MediaFile(path, type, sizeRead, now)));
                }
            }
            return new Signing(signer, now, pending);
        }
    }

    /** The clock's time to the second, as proofs record it. */
    static Instant seconds(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    /** When the key became usable: its creation, or the latest signature on its certificate if later. */
    private static Instant validFrom(SigningKey k) {
        Instant t = k.signingPublicKey().getCreationTime().toInstant();
        for (PGPPublicKey pk : k.certificate()) {
            for (Iterator<PGPSignature> it = pk.getSignatures(); it.hasNext();) {
                Instant made = it.next().getCreationTime().toInstant();
                if (made.isAfter(t)) {
                    t = made;
                }
            }
        }
        return t;
    }
}
