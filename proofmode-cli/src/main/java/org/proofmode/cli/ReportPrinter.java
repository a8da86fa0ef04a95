// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.proofmode.verify.Check;
import org.proofmode.verify.ContextSummary;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.VerificationReport;

/** Renders a verification report for people: the verdict first, then each check. */
final class ReportPrinter {
    private static final List<String> SHOWN_FIELDS = List.of(
            "File Path", "File", "Hardware", "Manufacturer", "OS", "Notes");

    private static final java.util.Map<String, String> CONTEXT_LABELS = java.util.Map.of(
            "device", "device", "camera", "camera", "captureTime", "capture time", "location", "location",
            "clockSynchronised", "clock synced");

    /** A SHA-256 in hex, except a Bitcoin merkle root: that one is compared with a block explorer's, so it stays whole. */
    private static final java.util.regex.Pattern HASH = java.util.regex.Pattern.compile("(?<![0-9a-f])(?<!merkle root )[0-9a-f]{64}(?![0-9a-f])");

    private ReportPrinter() {}

    static void print(PrintWriter out, VerificationReport r) {
        out.println(r.source() + ": " + r.verdict() + " — " + explain(r));
        for (Check c : r.checks()) {
            line(out, "  ", c);
        }
        for (ProofReport p : r.proofs()) {
            out.println("  proof " + shorten(p.id()) + p.media().map(m -> "  (media: " + m + ")").orElse("") + ": " + p.verdict());
            for (Check c : p.checks()) {
                line(out, "    ", c);
            }
            p.signer().ifPresent(s -> out.println("    " + pad("signer:", 18) + s.fingerprint() + " (" + s.algorithm()
                    + (s.userId().isEmpty() ? "" : ", " + s.userId()) + ")" + (s.trusted() ? " trusted" : " not a trusted key")));
            p.sha256().ifPresent(h -> out.println("    " + pad("sha256:", 18) + h));
            p.times().forEach((k, v) -> out.println("    " + pad(k.toLowerCase(Locale.ROOT) + ":", 18) + v));
            for (String f : SHOWN_FIELDS) {
                String v = p.record().get(f);
                if (v != null && !v.isBlank()) {
                    out.println("    " + pad(f.toLowerCase(Locale.ROOT) + ":", 18) + v);
                }
            }
            ContextSummary.of(p.record()).forEach((k, v) -> out.println("    " + pad(CONTEXT_LABELS.getOrDefault(k, k) + ":", 18) + v));
        }
    }

    private static String explain(VerificationReport r) {
        return switch (r.verdict()) {
            case TRUSTED -> "signed by a trusted key, and nothing was changed";
            case VALID -> "nothing was changed since it was signed; the signer is not a trusted key";
            case INVALID -> "a check failed: do not rely on this proof";
        };
    }

    private static void line(PrintWriter out, String indent, Check c) {
        out.println(indent + pad(c.status().name(), 5) + " " + pad(c.code(), 27) + " " + c.subject() + ": "
                + shorten(c.message()));
    }

    /** Shortens SHA-256 hex in messages for reading; file names, merkle roots and the JSON report keep them whole. */
    private static String shorten(String s) {
        return HASH.matcher(s).replaceAll(m -> m.group().substring(0, 8) + "…" + m.group().substring(56));
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
