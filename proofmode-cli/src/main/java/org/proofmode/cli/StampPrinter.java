// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.proofmode.failure.Failure;
import org.proofmode.timestamp.StampResult;
import org.proofmode.util.SafeText;

/** Renders what the timestamp services did, and the exit code it calls for. */
final class StampPrinter {
    private StampPrinter() {}

    /** One line per result: {@code <sha256>  <kind>  <outcome>  <detail>}. */
    static void print(PrintWriter out, List<StampResult> results) {
        for (StampResult r : results) {
            out.println(SafeText.escape(r.sha256() + "  " + kind(r) + "  " + r.outcome().name().toLowerCase(Locale.ROOT) + "  " + r.detail()));
        }
    }

    /** As {@link #print(PrintWriter, List)}, or one JSON object per result (see {@link JsonOut#stamp}). */
    static void print(PrintWriter out, List<StampResult> results, boolean json) {
        if (!json) {
            print(out, results);
            return;
        }
        results.forEach(r -> JsonOut.println(out, JsonOut.stamp(r)));
    }

    /** A one-line notice per timestamp that was queued or failed, for commands whose stdout is something else. */
    static void notices(PrintWriter err, List<StampResult> results) {
        for (StampResult r : results) {
            String h = r.sha256().substring(0, 8) + "…";
            switch (r.outcome()) {
                case STAMPED -> err.println(SafeText.escape("proofmode: " + h + ": " + kind(r) + " timestamp written: " + r.detail()));
                case QUEUED -> err.println(SafeText.escape("proofmode: " + h + ": " + kind(r) + " timestamp queued (" + r.detail()
                        + "); run 'proofmode timestamp sync' later"));
                case FAILED -> err.println(SafeText.escape("proofmode: " + h + ": " + kind(r) + " timestamp failed: " + r.detail()));
                default -> { }
            }
        }
    }

    /**
     * The exit code for these results: refusals are bad data; unreachable services matter only when a
     * timestamp was required now.
     */
    static int exit(List<StampResult> results, boolean required) {
        if (results.stream().anyMatch(r -> r.outcome() == StampResult.Outcome.FAILED)) {
            return ExitCodes.of(Failure.BAD_DATA);
        }
        if (required && results.stream().anyMatch(r -> r.outcome() == StampResult.Outcome.QUEUED
                || r.outcome() == StampResult.Outcome.UNREACHABLE)) {
            return ExitCodes.of(Failure.SERVICE_UNREACHABLE);
        }
        return ExitCodes.OK;
    }

    private static String kind(StampResult r) {
        return r.kind() == StampResult.Kind.RFC3161 ? "rfc3161" : "ots";
    }
}
