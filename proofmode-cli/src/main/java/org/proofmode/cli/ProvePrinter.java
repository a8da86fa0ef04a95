// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.failure.ProofModeException;
import org.proofmode.prove.BatchProver;
import org.proofmode.prove.ProveResult;
import org.proofmode.timestamp.StampResult;

/**
 * How {@code prove} shows its results, in the order the files were given: {@code <sha256>  <path>} on stdout
 * and notices on stderr, or one JSON line per file ({@code --json}); then once, on stderr, where the proofs
 * are and how many are new. It keeps the timestamps' outcomes for {@code --require-timestamp}.
 */
final class ProvePrinter {
    private final CliContext ctx;
    private final ProgressBar bar;
    private final boolean json;
    private final List<StampResult> stamps = new ArrayList<>();
    private int proved;
    private int existing;

    ProvePrinter(CliContext ctx, ProgressBar bar, boolean json) {
        this.ctx = ctx;
        this.bar = bar;
        this.json = json;
    }

    /** The timestamps' outcomes of the files printed so far. */
    List<StampResult> stamps() {
        return stamps;
    }

    /**
     * Prints one file's outcome once it is known.
     *
     * @return its exit code
     */
    int print(ProveFiles.Work w, Future<BatchProver.Item> f) throws InterruptedException {
        BatchProver.Item item;
        try {
            item = f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProofModeException pme) {
                bar.finish();
                if (json) {
                    JsonOut.println(ctx.out(), JsonOut.error("path", w.file().toString(), pme));
                } else {
                    ctx.err().println("proofmode: " + pme.getMessage());
                }
                return ExitCodes.of(pme.failure());
            }
            throw new IllegalStateException(e.getCause());
        }
        bar.finish();
        if (json) {
            return printJson(w, item);
        }
        ProveResult r = item.result();
        switch (r.outcome()) {
            case PROVED -> {
                ctx.out().println(r.sha256().orElseThrow() + "  " + w.file());
                proved++;
            }
            case EXISTING -> {
                ctx.out().println(r.sha256().orElseThrow() + "  " + w.file());
                existing++;
                ctx.err().println("proofmode: " + w.file() + ": already proved in " + r.proofFolder().orElseThrow()
                        + " (use --force for a fresh proof)");
            }
            case SKIPPED -> {
                ctx.err().println("proofmode: skipped " + w.file() + ": " + r.reason().orElse("not media"));
                return w.explicit() ? ExitCodes.UNSUPPORTED : ExitCodes.OK;
            }
            default -> throw new IllegalStateException(r.outcome().name());
        }
        ctx.out().flush();
        if (item.stampFailure().isPresent()) {
            throw item.stampFailure().get();
        }
        StampPrinter.notices(ctx.err(), item.stamps());
        stamps.addAll(item.stamps());
        return ExitCodes.OK;
    }

    /** A file's JSON line (see --json); the exit code as the text does. */
    private int printJson(ProveFiles.Work w, BatchProver.Item item) {
        ProveResult r = item.result();
        ObjectNode n = JsonOut.object().put("path", w.file().toString());
        r.sha256().ifPresent(h -> n.put("sha256", h));
        n.put("outcome", r.outcome().name().toLowerCase(Locale.ROOT));
        r.proofFolder().ifPresent(f -> n.put("stored", f.toString()));
        ArrayNode notices = n.putArray("notices");
        if (r.outcome() == ProveResult.Outcome.EXISTING) {
            notices.add("already proved (use --force for a fresh proof)");
        }
        r.reason().ifPresent(notices::add);
        if (item.stampFailure().isPresent()) {
            throw item.stampFailure().get();
        }
        StringWriter stampNotices = new StringWriter();
        StampPrinter.notices(new PrintWriter(stampNotices), item.stamps());
        stampNotices.toString().lines().map(l -> l.replaceFirst("^proofmode: ", "")).forEach(notices::add);
        n.set("timestamps", JsonOut.stamps(item.stamps()));
        JsonOut.println(ctx.out(), n);
        stamps.addAll(item.stamps());
        return r.outcome() == ProveResult.Outcome.SKIPPED && w.explicit() ? ExitCodes.UNSUPPORTED : ExitCodes.OK;
    }

    /**
     * Says once, on stderr, where this run's proofs are: the store (or --out) and how many are new. A run
     * that stored nothing says nothing.
     *
     * @param out the folder --out named, if any
     * @param store the store's folder
     */
    void where(Optional<Path> out, Path store) {
        if (proved + existing == 0) {
            return;
        }
        String folder = out.isPresent() ? out.get().toString() : home(store.toString());
        ctx.err().println("proofmode: proofs " + (out.isPresent() ? "written to " : "stored in ") + folder + " (" + proved + " new"
                + (existing > 0 ? ", " + existing + " kept from before" : "") + ")");
    }

    /** A path under the user's home folder written as {@code ~/...}, as a shell user reads it. */
    private static String home(String path) {
        String user = System.getProperty("user.home");
        if (user != null && !user.isEmpty() && !user.equals("/") && path.startsWith(user + "/")) {
            return "~" + path.substring(user.length());
        }
        return path;
    }
}
