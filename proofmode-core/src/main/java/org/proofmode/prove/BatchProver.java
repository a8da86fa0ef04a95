// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.StampResult;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.util.IoErrors;

/**
 * Proves many files at once, as {@code proofmode prove FOLDER} and the watcher do: a pool of threads
 * proving with one device key, and each proof timestamped as soon as it is stored. A proof that a
 * timestamp service could not stamp is still a proof: the request is queued by {@link Timestamps}, and
 * a timestamp that could not even be queued is reported beside the proof, not instead of it.
 */
public final class BatchProver implements AutoCloseable {
    /**
     * The timestamps asked for each proof.
     *
     * @param timestamps this home's timestamp service
     * @param request which services to ask
     * @param existingToo whether a proof that was already stored is stamped as well (what is already
     *     there is kept; a service not asked before is asked now)
     */
    public record Stamping(Timestamps timestamps, StampRequest request, boolean existingToo) {
        /** Validates the fields. */
        public Stamping {
            Objects.requireNonNull(timestamps, "timestamps");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * What came of one file.
     *
     * @param result the proof
     * @param stamps one result per timestamp kind asked: stamped, existing, queued or failed
     * @param stampFailure why the proof could not be stamped nor its request queued (the proof stands)
     */
    public record Item(ProveResult result, List<StampResult> stamps, Optional<ProofModeException> stampFailure) {
        /** Validates the fields. */
        public Item {
            Objects.requireNonNull(result, "result");
            stamps = List.copyOf(stamps);
            Objects.requireNonNull(stampFailure, "stampFailure");
        }
    }

    /** How long a thread of the pool waits for work before it ends. */
    private static final Duration IDLE_THREAD = Duration.ofSeconds(10);

    private final Optional<Stamping> stamping;
    private final ExecutorService pool;
    /** Proofs being made at once; threads whose proof waits to be stored do not count. */
    private final Semaphore making;

    /**
     * Creates a batch prover.
     *
     * @param threads files proved at once; while their proof sets wait to be stored (flushed together, see
     *     {@link ProofStore#stage}), up to {@link ProofStore#SETS_COMMITTED_TOGETHER} more files are proved
     * @param threadName names the pool's threads ({@code NAME-1}, {@code NAME-2}, …)
     * @param stamping the timestamps asked for each proof, if any
     */
    public BatchProver(int threads, String threadName, Optional<Stamping> stamping) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        this.stamping = Objects.requireNonNull(stamping, "stamping");
        this.making = new Semaphore(threads);
        AtomicInteger n = new AtomicInteger();
        // Beside the threads making proofs, as many as are stored together may wait for the disk; idle
        // ones end after a while (a watcher's batch lives as long as the watcher).
        int all = threads + ProofStore.SETS_COMMITTED_TOGETHER;
        ThreadPoolExecutor p = new ThreadPoolExecutor(all, all, IDLE_THREAD.toSeconds(), TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        p.allowCoreThreadTimeOut(true);
        this.pool = p;
    }

    /**
     * How many files to prove at once by default: more than the cores, so that while some threads wait
     * for the disk to confirm a write, others hash; never more than there are files.
     */
    public static int defaultThreads(int files) {
        return Math.min(4 * Runtime.getRuntime().availableProcessors(), Math.max(files, 1));
    }

    /**
     * The files of a folder and its subfolders, in name order, leaving out hidden ones (a name starting
     * with a dot): what proving a folder proves. Which of them are media the prover decides.
     *
     * @throws ProofModeException with {@link Failure#IO} if the folder cannot be listed
     */
    public static List<Path> filesUnder(Path folder) {
        try (Stream<Path> s = Files.walk(folder)) {
            return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, folder + ": cannot list: " + IoErrors.describe(e), e);
        } catch (UncheckedIOException e) {
            throw new ProofModeException(Failure.IO, folder + ": cannot list: " + IoErrors.describe(e.getCause()), e);
        }
    }

    /**
     * Proves a file on the pool, then stamps its proof.
     *
     * @return the outcome; fails with the prover's {@link ProofModeException}
     */
    public Future<Item> submit(Prover prover, Path file, Prover.Options options) {
        return submit(() -> prove(prover, file, options));
    }

    /** Runs a task on the pool: for callers that check a file around {@link #prove}. */
    public <T> Future<T> submit(Callable<T> task) {
        return pool.submit(task);
    }

    /**
     * Proves a file on this thread (no more than the batch's threads at once make proofs), waits until its
     * proof set is stored, flushed to the disk together with the others that wait, then stamps its proof if
     * it is new (or existing, when asked for).
     *
     * @throws ProofModeException as {@link Prover#prove(Path, Prover.Options)}
     */
    public Item prove(Prover prover, Path file, Prover.Options options) {
        Prover.Proving proving;
        try {
            making.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProofModeException(Failure.IO, file + ": not proved: the batch was stopped", e);
        }
        try {
            proving = prover.start(file, options, List.of());
        } finally {
            making.release();
        }
        ProveResult r = proving.await();
        if (stamping.isEmpty() || r.outcome() == ProveResult.Outcome.SKIPPED
                || r.outcome() == ProveResult.Outcome.EXISTING && !stamping.get().existingToo()) {
            return new Item(r, List.of(), Optional.empty());
        }
        Stamping s = stamping.get();
        try {
            return new Item(r, new ArrayList<>(s.timestamps().stamp(r.proofFolder().orElseThrow(), r.sha256().orElseThrow(),
                    s.request())), Optional.empty());
        } catch (ProofModeException e) {
            return new Item(r, List.of(), Optional.of(e));
        }
    }

    /**
     * Starts no more work and lets what runs finish, calling {@code meanwhile} every 100 ms, for at most
     * {@code grace}.
     *
     * @return whether everything finished
     */
    public boolean finish(Duration grace, Runnable meanwhile) throws InterruptedException {
        pool.shutdown();
        long until = System.nanoTime() + grace.toNanos();
        while (!pool.awaitTermination(100, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() - until > 0) {
                return false;
            }
            meanwhile.run();
        }
        return true;
    }

    /**
     * Abandons what has not started and interrupts what runs: a proof set is stored whole or not at all.
     */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
