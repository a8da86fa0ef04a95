// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.ProofMode;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.collect.CollectionArchive;
import org.proofmode.collect.CollectionRecord;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.verify.MediaComparison;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Trust;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Runs verifications on a bounded pool with a time limit, and renders their reports as
 * {@code proofmode verify --json} does, naming the bundle as the client did instead of by the server's file.
 */
public final class Verification implements AutoCloseable {
    private final Verifier verifier;
    private final BundleLimits limits;
    private final Duration timeout;
    private final ThreadPoolExecutor pool;

    /**
     * A report with its JSON form, and the record of a collection ({@code proofmode collect}) when that is
     * what was verified (untrusted: its verdict says whether it holds).
     */
    public record Result(VerificationReport report, ObjectNode json, Optional<CollectionRecord> collection) {
        /** Validates the fields. */
        public Result {
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(json, "json");
            Objects.requireNonNull(collection, "collection");
        }

        /** A bundle's report. */
        public Result(VerificationReport report, ObjectNode json) {
            this(report, json, Optional.empty());
        }
    }

    /**
     * Creates the service for the server's home: it trusts the home's device keys and the configured ones,
     * reads bundles under {@code limits} and gives each verification {@code timeout}.
     */
    public Verification(Path home, List<PGPPublicKeyRing> trusted, BundleLimits limits, Duration timeout) {
        // The home's device keys, its TSA roots and its C2PA CA, and the configured keys; bundles under its limits.
        this.verifier = ProofMode.at(home).verifier(Trust.HOME.withKeys(trusted).withLimits(limits));
        this.limits = limits;
        this.timeout = timeout;
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        // A queue bound, so a flood waits in the network stack instead of in memory.
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(256),
                r -> {
                    Thread t = new Thread(r, "proofmode-verify");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** The configured bundle limits: every bundle the server holds is opened under them, as at intake. */
    public BundleLimits limits() {
        return limits;
    }

    /**
     * Verifies a received bundle, or a collection archive ({@code proofmode collect}'s folder as one zip,
     * told by its {@code collection.json}), whose result also holds its record.
     *
     * @param file the bundle on disk (a server-made name)
     * @param name the name the client gave it, used in the report and in messages
     * @throws ProofModeException for a bundle that cannot be read (messages name {@code name}, not the file)
     * @throws ApiException with {@link ProblemType#UNAVAILABLE} when the server is saturated or time runs out
     */
    public Result verify(Path file, String name) {
        if (CollectionArchive.isArchive(file)) {
            return verifyCollection(file, name);
        }
        Map<Path, String> names = Map.of(file, name);
        VerificationReport report = inPool(() -> verifier.verify(file, Optional.empty()), "verification", names);
        ObjectNode json = ReportJson.toNode(report);
        scrub(json, names);
        json.put("source", name);
        return new Result(report, json);
    }

    /**
     * Verifies a received collection archive ({@link CollectionArchive}): unpacked beside it (at most twice
     * its size and {@value #UNPACK_ALLOWANCE} bytes more), verified as {@code proofmode verify FOLDER} does,
     * the folder deleted. Its JSON has the capture as {@code collection} besides the report.
     */
    private Result verifyCollection(Path file, String name) {
        Path scratch;
        long bound;
        try {
            scratch = Files.createTempDirectory(file.toAbsolutePath().getParent(), ".collection-");
            bound = 2 * Files.size(file) + UNPACK_ALLOWANCE;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot unpack " + name + ": " + e.getMessage(), e);
        }
        Map<Path, String> names = Map.of(file, name, scratch, name);
        Result r = inPool(() -> {
            try {
                CollectionArchive.extract(file, scratch, limits, bound);
                VerificationReport report = verifier.verifyCollection(scratch);
                Optional<CollectionRecord> record;
                try {
                    record = Optional.of(CollectionRecord.parse(Files.readAllBytes(scratch.resolve(CollectionRecord.FILE))));
                } catch (ProofModeException e) {
                    record = Optional.empty(); // the report says why (collect.record.malformed)
                }
                return new Result(report, ReportJson.toNode(report), record);
            } finally {
                AtomicFiles.deleteTree(scratch);
            }
        }, "verification", names);
        scrub(r.json(), names);
        r.json().put("source", name);
        r.collection().ifPresent(c -> r.json().set("collection", CaptureJson.of(c)));
        return r;
    }

    /** Bytes a collection archive may unpack to beyond twice its size (its JSON and PEM files compress well). */
    public static final long UNPACK_ALLOWANCE = 16L << 20;

    /**
     * Compares two received items ({@code proofmode compare}): each a share bundle, whose proof is verified
     * first, or a media file, hashed here (image hashes; frame and sample hashes by FFmpeg).
     *
     * @param a the first item on disk (a server-made name)
     * @param nameA the name the client gave it
     * @param b the second item on disk
     * @param nameB the name the client gave it
     * @return {@code ReportJson}'s comparison document, naming the items as the client did
     * @throws ProofModeException for an item that cannot be read (messages name the client's names)
     * @throws ApiException with {@link ProblemType#UNAVAILABLE} when the server is saturated or time runs out
     */
    public ObjectNode compare(Path a, String nameA, Path b, String nameB) {
        Map<Path, String> names = Map.of(a, nameA, b, nameB);
        ObjectNode json = inPool(() -> {
            List<String> notes = new ArrayList<>();
            MediaComparison.Side sa = MediaComparison.of(verifier, a, nameA, notes);
            MediaComparison.Side sb = MediaComparison.of(verifier, b, nameB, notes);
            return ReportJson.toNode(sa, sb, MediaComparison.compare(sa, sb), notes);
        }, "comparing", names);
        scrub(json, names);
        return json;
    }

    /**
     * Runs a task on the pool within the time limit; a failure to read an item names it as the client did.
     *
     * @param what what the task does, for the message when time runs out
     * @param names each received file and the client's name for it
     */
    private <T> T inPool(Callable<T> task, String what, Map<Path, String> names) {
        Future<T> f;
        long start = System.nanoTime();
        try {
            f = pool.submit(task);
        } catch (RejectedExecutionException e) {
            throw new ApiException(ProblemType.UNAVAILABLE, "too many verifications in progress; retry later");
        }
        try {
            T result = f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (System.nanoTime() - start > timeout.toNanos()) {
                // finished before the wait began but after the bound: the bound holds however the threads ran
                throw new TimeoutException();
            }
            return result;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new ApiException(ProblemType.UNAVAILABLE, what + " took longer than " + shown(timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new ApiException(ProblemType.UNAVAILABLE, "interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProofModeException p) {
                String message = p.getMessage();
                for (Map.Entry<Path, String> n : names.entrySet()) {
                    message = message.replace(n.getKey().toString(), n.getValue());
                }
                throw new ProofModeException(p.failure(), message, p);
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** No answer reveals where the server keeps files: each received file's path becomes the client's name. */
    private static void scrub(JsonNode json, Map<Path, String> names) {
        for (Map.Entry<Path, String> n : names.entrySet()) {
            scrub(json, n.getKey().toAbsolutePath().toString(), n.getValue());
            scrub(json, n.getKey().toString(), n.getValue());
        }
    }

    /** A time bound as people write it: {@code 60 s}, {@code 250 ms}, {@code 1 ns}. */
    static String shown(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + " ms";
        }
        if (nanos % 1_000L == 0) {
            return nanos / 1_000L + " µs";
        }
        return nanos + " ns";
    }

    /** Replaces {@code path} by {@code name} in every text of a JSON tree. */
    static void scrub(JsonNode node, String path, String name) {
        if (node instanceof ObjectNode o) {
            List<String> fields = new ArrayList<>();
            o.fieldNames().forEachRemaining(fields::add);
            for (String f : fields) {
                JsonNode v = o.get(f);
                if (v.isTextual()) {
                    o.put(f, v.asText().replace(path, name));
                } else {
                    scrub(v, path, name);
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode v = a.get(i);
                if (v.isTextual()) {
                    a.set(i, a.textNode(v.asText().replace(path, name)));
                } else {
                    scrub(v, path, name);
                }
            }
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
