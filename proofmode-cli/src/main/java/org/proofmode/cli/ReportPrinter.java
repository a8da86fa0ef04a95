package org.proofmode.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.proofmode.verify.Check;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.VerificationReport;

/** Renders a verification report for people: the verdict first, then each check. */
final class ReportPrinter {
    private static final List<String> SHOWN_FIELDS = List.of(
            "File Path", "File", "Hardware", "Manufacturer", "OS", "Location.Latitude", "Location.Longitude", "Notes");

    private ReportPrinter() {}

    static void print(PrintWriter out, VerificationReport r) {
        out.println(r.source() + ": " + r.verdict() + " — " + explain(r));
        for (Check c : r.checks()) {
            line(out, "  ", c);
        }
        for (ProofReport p : r.proofs()) {
            out.println("  proof " + p.id() + p.media().map(m -> "  (media: " + m + ")").orElse("") + ": " + p.verdict());
            for (Check c : p.checks()) {
                line(out, "    ", c);
            }
            p.signer().ifPresent(s -> out.println("    signer:    " + s.fingerprint() + " (" + s.algorithm()
                    + (s.userId().isEmpty() ? "" : ", " + s.userId()) + ")" + (s.trusted() ? " trusted" : " not a trusted key")));
            p.times().forEach((k, v) -> out.println("    " + pad(k.toLowerCase(Locale.ROOT) + ":", 11) + v));
            for (String f : SHOWN_FIELDS) {
                String v = p.record().get(f);
                if (v != null && !v.isBlank()) {
                    out.println("    " + pad(f.toLowerCase(Locale.ROOT) + ":", 11) + v);
                }
            }
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
        out.println(indent + pad(c.status().name(), 5) + " " + pad(c.code(), 28) + " " + c.subject() + ": " + c.message());
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
