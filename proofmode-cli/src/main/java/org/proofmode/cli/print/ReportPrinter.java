// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Check;
import org.proofmode.verify.ContextSummary;
import org.proofmode.verify.Meanings;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Status;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verdict;

/**
 * Renders a verification report for people: the verdict first, then each check.
 *
 * <p>Security: nearly everything in a report came from the sender (file names, record fields, key user
 * IDs, messages quoting them); every line goes through {@link SafeText}, so it stays one line and carries
 * no terminal escape.
 */
public final class ReportPrinter {
    private static final List<String> SHOWN_FIELDS = List.of(
            "File Path", "File", "Hardware", "Manufacturer", "OS", "Notes");

    /** A SHA-256 in hex, except a Bitcoin merkle root: that one is compared with a block explorer's, so it stays whole. */
    private static final Pattern HASH = Pattern.compile("(?<![0-9a-f])(?<!merkle root )[0-9a-f]{64}(?![0-9a-f])");

    private ReportPrinter() {}

    public static void print(PrintWriter out, VerificationReport r) {
        println(out, r.source() + ": " + r.verdict() + " — " + explain(r));
        for (Check c : r.checks()) {
            line(out, "  ", c);
        }
        for (ProofReport p : r.proofs()) {
            println(out, "  proof " + shorten(p.id()) + p.media().map(m -> "  (media: " + m + ")").orElse("") + ": " + p.verdict());
            for (Check c : p.checks()) {
                line(out, "    ", c);
            }
            p.signer().ifPresent(s -> println(out, "    " + pad("signer:", 18) + s.fingerprint() + " (" + s.algorithm()
                    + (s.userId().isEmpty() ? "" : ", " + s.userId()) + ")" + (s.trusted() ? " trusted" : " not a trusted key")));
            p.sha256().ifPresent(h -> println(out, "    " + pad("sha256:", 18) + h));
            p.times().forEach((k, v) -> println(out, "    " + pad(k.toLowerCase(Locale.ROOT) + ":", 18) + v));
            for (String f : SHOWN_FIELDS) {
                String v = p.record().get(f);
                if (v != null && !v.isBlank()) {
                    println(out, "    " + pad(f.toLowerCase(Locale.ROOT) + ":", 18) + v);
                }
            }
            ContextSummary.of(p.record()).forEach((k, v) -> println(out, "    " + pad(ContextSummary.label(k).toLowerCase(Locale.ROOT) + ":", 18) + v));
        }
    }

    /**
     * Prints a report as one line (verify --short): the verdict, the item, and the first failing check
     * (for a report that is neither VALID nor TRUSTED and has none, its first warning), escaped.
     */
    public static void brief(PrintWriter out, VerificationReport r) {
        Optional<Check> first = firstWith(r, Status.FAIL);
        if (first.isEmpty() && r.verdict() != Verdict.VALID && r.verdict() != Verdict.TRUSTED) {
            first = firstWith(r, Status.WARN);
        }
        println(out, pad(r.verdict().name(), 10) + " " + r.source()
                + first.map(c -> "  " + c.code() + " " + c.subject() + ": " + shorten(c.message())).orElse(""));
    }

    private static Optional<Check> firstWith(VerificationReport r, Status status) {
        return Stream.concat(r.checks().stream(), r.proofs().stream().flatMap(p -> p.checks().stream()))
                .filter(c -> c.status() == status).findFirst();
    }

    /** What the verdict covers, and what it does not: a verdict never speaks for files that were not checked. */
    public static String explain(VerificationReport r) {
        return Meanings.explain(r);
    }

    /** Prints one check as the report does: status, code, subject and message, escaped, on one line. */
    public static void line(PrintWriter out, String indent, Check c) {
        println(out, indent + pad(c.status().name(), 5) + " " + pad(c.code(), 27) + " " + c.subject() + ": "
                + shorten(c.message()));
    }

    /** Prints one line of the report, escaped: whatever the sender put in it, it stays one line. */
    private static void println(PrintWriter out, String line) {
        out.println(SafeText.escape(line));
    }

    /** Shortens SHA-256 hex in messages for reading; file names, merkle roots and the JSON report keep them whole. */
    private static String shorten(String s) {
        return HASH.matcher(s).replaceAll(m -> m.group().substring(0, 8) + "…" + m.group().substring(56));
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
