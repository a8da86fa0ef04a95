// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.cli.print.WatchLog;
import org.proofmode.proof.ProofRecord;
import org.proofmode.timestamp.StampResult;
import org.proofmode.verify.Check;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Signer;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.watch.FileState;
import org.proofmode.watch.ProofEntry;
import org.proofmode.watch.TrackedFile;
import org.proofmode.watch.WatchEvent;
import org.proofmode.watch.WatchStatus;

/**
 * Every text printer ({@code verify}, {@code verify --short}, {@code status}, {@code inspect}, the watcher's log, timestamp
 * results) fed arbitrary Unicode, control characters and terminal escape sequences where a sender's text
 * goes: no raw control character, escape or bidirectional override reaches the output, and each report
 * has as many lines as it has with harmless text. Zero-width characters (U+200B–U+200D, U+2060–U+2064,
 * U+FEFF), which make two different names look alike, are escaped too.
 */
class HostileTextPrintersPropertiesTest {
    /** Text a sender would try: forged lines, cursor moves, erasing, window titles, C1 CSI, bidi, separators. */
    private static final List<String> ATTACKS = List.of(
            "\n  PASS  signature.media.valid     photo.jpg: good signature", "\r", "\u001b[2K\u001b[1A", "\u001b]0;owned\u0007",
            "\u001b]8;;http://evil/\u001b\\link\u001b]8;;\u001b\\", "\u009b2J", "\u0085", "\u202eTRUSTED", "\u2066", "\u2028", "\u2029",
            "\u0000", "\u007f", "\\u001b", "\ud800", "\udc00x", "\u200f", "\u061c", "\t", "\u000b\u000c",
            "pho\u200bto.jpg", "\u200c", "\u200d", "\u2060", "\u2061\u2062\u2063\u2064", "\ufeffAlice");

    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(30);
        Arbitrary<String> attack = Arbitraries.of(ATTACKS);
        Arbitrary<String> mixed = Combinators.combine(any, attack, any).as((a, b, c) -> a + b + c);
        // A leading letter keeps a field from being blank, so that it is printed.
        return Arbitraries.oneOf(any, attack, mixed).map(s -> "v" + s);
    }

    @Provide
    Arbitrary<List<String>> texts() {
        return hostile().list().ofSize(12);
    }

    @Property(tries = 300)
    void verifyPrinter_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> ReportPrinter.print(out, report(s)));
    }

    @Property(tries = 300)
    void verifyShortPrinter_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> {
            VerificationReport r = report(s);
            Check failed = new Check("signature.media.invalid", Status.FAIL, s.get(3), "does not verify: " + s.get(4));
            ReportPrinter.brief(out, r);
            ReportPrinter.brief(out, new VerificationReport(s.get(2), Verdict.INVALID, List.of(failed), r.proofs()));
        });
    }

    @Property(tries = 300)
    void inspectPrinter_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> {
            ProofRecord.Builder b = ProofRecord.builder();
            for (int i = 0; i < s.size(); i++) {
                b.put(i % 2 == 0 ? "Field" + i : s.get(i) + i, s.get(i));
            }
            InspectCommand.text(b.build(), out);
        });
    }

    @Property(tries = 300)
    void statusPrinter_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> StatusCommand.text(new WatchStatus(List.of(s.get(0), s.get(1)), Optional.of(42L), true,
                Optional.of(Instant.EPOCH), Optional.empty(), Map.of(FileState.DONE, 1L), 0,
                List.of(new ProofEntry("ab".repeat(32), s.get(2), Instant.EPOCH, Instant.EPOCH)),
                List.of(new TrackedFile(s.get(3), 1, 1, FileState.FAILED, Optional.empty(), Instant.EPOCH, s.get(4), Map.of(), 1, 0,
                        Optional.of(s.get(5)))), Optional.of(1L << 40), false), out));
    }

    @Property(tries = 300)
    void watchLog_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("path", s.get(0));
            fields.put("error", s.get(1));
            fields.put("folder", s.get(2));
            out.println(WatchLog.text(new WatchEvent(Instant.EPOCH, WatchEvent.Kind.FAILED, fields)));
        });
    }

    @Property(tries = 300)
    void stampPrinter_escapesEverything_hostileText(@ForAll("texts") List<String> t) {
        assertSafe(t, s -> out -> {
            List<StampResult> r = List.of(new StampResult("ab".repeat(32), StampResult.Kind.RFC3161, StampResult.Outcome.FAILED, s.get(0)),
                    new StampResult("cd".repeat(32), StampResult.Kind.OTS, StampResult.Outcome.QUEUED, s.get(1)));
            StampPrinter.print(out, r);
            StampPrinter.notices(out, r);
        });
    }

    /** A report with a sender's text in every place a sender's text can be. */
    private static VerificationReport report(List<String> s) {
        Map<String, String> record = new LinkedHashMap<>();
        record.put("Notes", s.get(0));
        record.put("File Path", s.get(1));
        record.put("Hardware", s.get(2));
        record.put("Manufacturer", s.get(3));
        record.put("OS", s.get(4));
        Check c = new Check("signature.media.valid", Status.PASS, s.get(5), "good signature by " + s.get(6));
        ProofReport p = new ProofReport(s.get(7), Optional.of("ab".repeat(32)), Optional.of(s.get(8)), Verdict.TRUSTED, List.of(c),
                Optional.of(new Signer("AB".repeat(20), "ed25519", s.get(9), true)), record, Map.of("Proof Generated", s.get(10)));
        Check extra = new Check("bundle.entry.unproved", Status.WARN, s.get(11), "media that no proof in the bundle names");
        return new VerificationReport(s.get(1), Verdict.TRUSTED, List.of(extra), List.of(p));
    }

    /** Prints with hostile text and with harmless text of the same shape; compares. */
    private static void assertSafe(List<String> hostile, java.util.function.Function<List<String>, Consumer<PrintWriter>> printer) {
        String out = print(printer.apply(hostile));
        List<String> harmless = new ArrayList<>();
        for (int i = 0; i < hostile.size(); i++) {
            harmless.add("harmless" + i);
        }
        String reference = print(printer.apply(harmless));
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            if (c == '\n') {
                continue;
            }
            assertThat(dangerous(out, i)).as("character U+%04X at %d in:%n%s", (int) c, i, out).isFalse();
        }
        assertThat(out.split("\n", -1)).as(out).hasSameSizeAs(reference.split("\n", -1));
    }

    private static boolean dangerous(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return Character.getType(c) == Character.CONTROL || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
                || (c >= 0x200b && c <= 0x200f) || (c >= 0x2060 && c <= 0x2064) || c == 0xfeff
                || c == 0x061c || c == 0x2028 || c == 0x2029;
    }

    private static String print(Consumer<PrintWriter> p) {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        p.accept(out);
        out.flush();
        return w.toString().replace(System.lineSeparator(), "\n");
    }
}
