// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;

/**
 * Verifies many items at once (a folder of bundles, several PATH arguments) on every core: each report
 * is printed as soon as it and the ones before it are done (in the order given, so output is the same
 * from run to run), as text or as one JSON line; a progress bar on a terminal; a summary at the end.
 */
final class VerifyBatch {
    /** Verifies one item; an exception means it could not be read. */
    @FunctionalInterface
    interface Task {
        VerificationReport verify(Path item) throws IOException;
    }

    /** How one item ended: a report, or the failure that kept it from being verified. */
    record Outcome(Path item, Optional<VerificationReport> report, Optional<ProofModeException> failure) {
        Outcome {
            Objects.requireNonNull(item, "item");
            if (report.isPresent() == failure.isPresent()) {
                throw new IllegalArgumentException("an outcome has a report or a failure");
            }
        }
    }

    /** The tally of a batch: counts by verdict, unreadable items, and the exit code. */
    record Summary(Map<Verdict, List<Path>> byVerdict, List<Outcome> unreadable) {
        int count(Verdict v) {
            return byVerdict.getOrDefault(v, List.of()).size();
        }

        /** The worst verdict among the reports, TRUSTED when there are none. */
        Verdict overall() {
            return byVerdict.keySet().stream().filter(v -> !byVerdict.get(v).isEmpty()).reduce(Verdict.TRUSTED, Verdict::and);
        }
    }

    private VerifyBatch() {}

    /** How each item is printed: the text report, a JSON line, or one line (verify --short). */
    enum Format { TEXT, JSON, BRIEF }

    /**
     * Verifies the items, prints each outcome and (as text) the summary, and gives the exit code: that of
     * the first unreadable item if any, else that of the worst verdict ({@link #exit}).
     */
    static int runAll(List<Path> items, int jobs, Task task, CliContext ctx, Format format, UnaryOperator<String> show,
            boolean requireTrusted) {
        long start = System.nanoTime();
        Summary summary = run(items, jobs, task, ctx, format, show);
        if (format == Format.TEXT) {
            VerifyOutput.printSummary(ctx.out(), summary, items.size(), (System.nanoTime() - start) / 1e9, show);
        }
        if (!summary.unreadable().isEmpty()) {
            return ExitCodes.of(summary.unreadable().get(0).failure().orElseThrow().failure());
        }
        return VerifyOutput.exit(ctx, summary.overall(), requireTrusted);
    }

    /**
     * Verifies the items on {@code jobs} threads and prints each outcome in item order.
     *
     * @param format the text report, one JSON line or one short line per item
     * @param show turns the paths in a text as opened back into what the caller typed
     */
    static Summary run(List<Path> items, int jobs, Task task, CliContext ctx, Format format, UnaryOperator<String> show) {
        boolean json = format == Format.JSON;
        long totalBytes = items.stream().mapToLong(VerifyBatch::sizeOf).sum();
        ProgressBar bar = new ProgressBar(ctx.err(), ctx.terminal().interactive() && stderrIsTerminal(), totalBytes, items.size());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, items.size())), r -> {
            Thread t = new Thread(r, "proofmode-verify");
            t.setDaemon(true);
            return t;
        });
        Map<Verdict, List<Path>> byVerdict = new EnumMap<>(Verdict.class);
        List<Outcome> unreadable = new ArrayList<>();
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            for (Path item : items) {
                futures.add(pool.submit(() -> {
                    Outcome o = one(task, item);
                    bar.bytes(sizeOf(item));
                    bar.fileDone();
                    return o;
                }));
            }
            for (Future<Outcome> f : futures) {
                Outcome o = get(f);
                bar.around(() -> VerifyOutput.print(ctx, o, format, show));
                o.report().ifPresent(r -> byVerdict.computeIfAbsent(r.verdict(), v -> new ArrayList<>()).add(o.item()));
                o.failure().ifPresent(e -> unreadable.add(o));
            }
        } finally {
            pool.shutdownNow();
            bar.finish();
        }
        return new Summary(byVerdict, unreadable);
    }

    private static Outcome one(Task task, Path item) {
        try {
            return new Outcome(item, Optional.of(task.verify(item)), Optional.empty());
        } catch (ProofModeException e) {
            return new Outcome(item, Optional.empty(), Optional.of(e));
        } catch (IOException e) {
            return new Outcome(item, Optional.empty(), Optional.of(new ProofModeException(Failure.IO, item + ": " + e.getMessage(), e)));
        }
    }

    private static Outcome get(Future<Outcome> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProofModeException(Failure.INTERNAL, "interrupted", e);
        } catch (ExecutionException e) {
            // A bug in a check, not a bad bundle: stop as a single verify would.
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static long sizeOf(Path p) {
        try {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    return s.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
                }
            }
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Tells whether this process's stderr is a terminal (the console Java reports may be there while stderr
     * goes to a file). On Linux from {@code /proc/self/fd/2}; elsewhere assumed when there is a console.
     */
    static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            String target = Files.readSymbolicLink(fd).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return !Files.exists(Path.of("/proc/self"));
        }
    }
}
