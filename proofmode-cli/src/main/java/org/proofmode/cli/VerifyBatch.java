// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.MediaSniffer;
import org.proofmode.prove.BatchProver;
import org.proofmode.util.SafeText;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;

/**
 * Verifies many items at once (a folder of bundles, several PATH arguments) on every core: each report
 * is printed as soon as it and the ones before it are done (in the order given, so output is the same
 * from run to run), as text or as one JSON line; a progress bar on a terminal; a summary at the end.
 */
final class VerifyBatch {
    /** Made for --json only: an object mapper costs a fresh process tens of milliseconds. */
    private static final class Lines {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

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

    /**
     * The items PATH arguments stand for, whether any argument was a folder that stands for several, and
     * how many files in such folders were left out (neither media nor bundles).
     */
    record Items(List<Path> paths, boolean fromFolder, int leftOut) {
        Items {
            paths = List.copyOf(paths);
        }
    }

    /**
     * The items PATH arguments stand for. A folder that holds a proof record ({@code <h>.proof.json} or
     * {@code .proof.csv}: a proof folder, an unpacked share bundle) is one bundle. Any other folder stands
     * for what is in it and its subfolders, in name order: share bundles ({@code *.zip}, {@code *.zip.age})
     * and proof folders as bundles, and every other file as a media file whose proof is looked up in the
     * store, read as {@code prove FOLDER} reads it ({@link BatchProver#filesUnder}: hidden files left out);
     * files that are neither media nor bundles are left out and counted. Anything else stands for itself.
     */
    static Items expand(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        boolean folder = false;
        int leftOut = 0;
        for (Path p : paths) {
            if (Files.isDirectory(p) && !holdsRecord(p) && !org.proofmode.verify.Verifier.isCollection(p)) {
                folder = true;
                Inside inside = inside(p);
                out.addAll(inside.items());
                leftOut += inside.leftOut();
            } else {
                out.add(p);
            }
        }
        return new Items(out, folder, leftOut);
    }

    private record Inside(List<Path> items, int leftOut) {}

    /** What a folder that is not itself a bundle holds: bundles, proof folders and media files, in name order. */
    private static Inside inside(Path dir) throws IOException {
        Set<Path> items = new TreeSet<>();
        Map<Path, Boolean> records = new HashMap<>();
        int leftOut = 0;
        for (Path f : BatchProver.filesUnder(dir)) {
            Optional<Path> proofFolder = proofFolderAbove(dir, f, records);
            String lower = f.getFileName().toString().toLowerCase(Locale.ROOT);
            if (proofFolder.isPresent()) {
                items.add(proofFolder.get());
            } else if (lower.endsWith(".zip") || lower.endsWith(".zip.age") || MediaSniffer.sniff(f).isPresent()) {
                items.add(f);
            } else {
                leftOut++;
            }
        }
        return new Inside(new ArrayList<>(items), leftOut);
    }

    /** The outermost folder between {@code top} (left out) and {@code f} that holds a proof record, if any. */
    private static Optional<Path> proofFolderAbove(Path top, Path f, Map<Path, Boolean> records) throws IOException {
        Path rel = top.relativize(f.getParent());
        Path at = top;
        for (Path part : rel) {
            if (part.toString().isEmpty()) {
                break;
            }
            at = at.resolve(part);
            Boolean holds = records.get(at);
            if (holds == null) {
                holds = holdsRecord(at);
                records.put(at, holds);
            }
            if (holds) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    private static boolean holdsRecord(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.endsWith(ProofFiles.JSON) || n.endsWith(ProofFiles.CSV));
        }
    }

    /** How each item is printed: the text report, a JSON line, or one line (verify --short). */
    enum Format { TEXT, JSON, BRIEF }

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
                bar.around(() -> print(ctx, o, format, show));
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

    private static void print(CliContext ctx, Outcome o, Format format, UnaryOperator<String> show) {
        if (format == Format.BRIEF) {
            if (o.report().isPresent()) {
                StringWriter line = new StringWriter();
                ReportPrinter.brief(new PrintWriter(line), o.report().get());
                ctx.out().print(show.apply(line.toString()));
            } else {
                ProofModeException e = o.failure().get();
                ctx.out().println(SafeText.escape(String.format(Locale.ROOT, "%-10s %s  exit %d: %s", "UNREADABLE",
                        show.apply(o.item().toString()), ExitCodes.of(e.failure()), show.apply(e.getMessage()))));
            }
        } else if (format == Format.JSON) {
            ObjectNode line;
            if (o.report().isPresent()) {
                line = ReportJson.toNode(o.report().get());
            } else {
                ProofModeException e = o.failure().get();
                line = Lines.MAPPER.createObjectNode();
                line.put("formatVersion", ReportJson.FORMAT_VERSION);
                line.put("source", o.item().toString());
                ObjectNode err = line.putObject("error");
                err.put("exitCode", ExitCodes.of(e.failure()));
                err.put("message", e.getMessage());
            }
            try {
                ctx.out().println(show.apply(Lines.MAPPER.writeValueAsString(line)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        } else if (o.report().isPresent()) {
            StringWriter text = new StringWriter();
            ReportPrinter.print(new PrintWriter(text), o.report().get());
            ctx.out().print(show.apply(text.toString()));
        } else {
            ctx.err().println("proofmode: " + SafeText.escape(show.apply(o.failure().get().getMessage())));
        }
        ctx.out().flush();
    }

    /** Prints the summary table: counts by verdict, and which items were not TRUSTED. */
    static void printSummary(PrintWriter out, Summary s, int items, double seconds, UnaryOperator<String> show) {
        out.println();
        out.println(String.format(Locale.ROOT, "Summary: %d item%s in %.1f s", items, items == 1 ? "" : "s", seconds));
        out.println(String.format(Locale.ROOT, "  %-11s %6d", "TRUSTED", s.count(Verdict.TRUSTED)));
        row(out, "VALID", s.byVerdict().getOrDefault(Verdict.VALID, List.of()).stream().map(p -> show.apply(p.toString())).toList());
        row(out, "INCOMPLETE", s.byVerdict().getOrDefault(Verdict.INCOMPLETE, List.of()).stream().map(p -> show.apply(p.toString())).toList());
        row(out, "INVALID", s.byVerdict().getOrDefault(Verdict.INVALID, List.of()).stream().map(p -> show.apply(p.toString())).toList());
        row(out, "unreadable", s.unreadable().stream().map(o -> show.apply(o.item().toString()) + " (exit "
                + ExitCodes.of(o.failure().get().failure()) + ")").toList());
        out.flush();
    }

    private static void row(PrintWriter out, String label, List<String> names) {
        out.println(String.format(Locale.ROOT, "  %-11s %6d", label, names.size()));
        for (String n : names) {
            out.println("      " + SafeText.escape(n));
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
