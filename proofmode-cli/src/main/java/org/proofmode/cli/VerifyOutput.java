// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;

/**
 * How {@code verify} prints what it found: each item's report (as text, a JSON document or line, or one
 * short line), the summary of several, and the exit code of a verdict.
 */
final class VerifyOutput {
    private VerifyOutput() {}

    /** Made for --json only: an object mapper costs a fresh process tens of milliseconds. */
    private static final class Lines {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /** Prints the report of a single item as before batches existed (one JSON document with --json); gives the exit code. */
    static int printOne(CliContext ctx, Path item, VerificationReport r, VerifyBatch.Format format, UnaryOperator<String> show,
            boolean requireTrusted) {
        if (format == VerifyBatch.Format.JSON) {
            ctx.out().print(show.apply(ReportJson.write(r)));
            ctx.out().flush();
        } else {
            print(ctx, new VerifyBatch.Outcome(item, Optional.of(r), Optional.empty()), format, show);
        }
        return exit(ctx, r.verdict(), requireTrusted);
    }

    /** The exit code of a verdict: 3 INVALID, 13 INCOMPLETE, 43 for VALID with --require-trusted, else 0. */
    static int exit(CliContext ctx, Verdict overall, boolean requireTrusted) {
        if (overall == Verdict.INVALID) {
            return ExitCodes.INVALID;
        }
        if (overall == Verdict.INCOMPLETE) {
            ctx.err().println("proofmode: incomplete: a content binding could not be checked, so nothing shows the content is unchanged");
            return ExitCodes.UNSUPPORTED;
        }
        if (requireTrusted && overall != Verdict.TRUSTED) {
            ctx.err().println("proofmode: valid, but not signed by a trusted key (--require-trusted)");
            return ExitCodes.UNTRUSTED;
        }
        return ExitCodes.OK;
    }

    static void print(CliContext ctx, VerifyBatch.Outcome o, VerifyBatch.Format format, UnaryOperator<String> show) {
        if (format == VerifyBatch.Format.BRIEF) {
            if (o.report().isPresent()) {
                StringWriter line = new StringWriter();
                ReportPrinter.brief(new PrintWriter(line), o.report().get());
                ctx.out().print(show.apply(line.toString()));
            } else {
                ProofModeException e = o.failure().get();
                ctx.out().println(SafeText.escape(String.format(Locale.ROOT, "%-10s %s  exit %d: %s", "UNREADABLE",
                        show.apply(o.item().toString()), ExitCodes.of(e.failure()), show.apply(e.getMessage()))));
            }
        } else if (format == VerifyBatch.Format.JSON) {
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
    static void printSummary(PrintWriter out, VerifyBatch.Summary s, int items, double seconds, UnaryOperator<String> show) {
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
}
