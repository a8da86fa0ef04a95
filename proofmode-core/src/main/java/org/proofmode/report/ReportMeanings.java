// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.verify.Meanings;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verdict;

/**
 * What check codes and verdicts mean, in a report's language: {@link Meanings} in English (the source, which
 * the JSON and the terminal keep), else the translations of {@code i18n/meanings_TAG.properties}, keyed by the
 * check code. The signature families are translated by their parts ({@code part.subject.SUBJECT},
 * {@code part.outcome.OUTCOME}, joined by {@code part.sentence}), so that no language has to agree a verb
 * with a noun it does not see; a code no file knows falls back to the English sentence.
 */
public final class ReportMeanings {
    private final Language language;
    private final Texts own;

    private ReportMeanings(Language language) {
        this.language = language;
        this.own = Texts.of(Texts.Family.MEANINGS, language);
    }

    /** The meanings in a language. */
    static ReportMeanings of(Language language) {
        return new ReportMeanings(Objects.requireNonNull(language, "language"));
    }

    /**
     * What every check code this version knows means ({@link Meanings#codes()}), in a language: the sentences the
     * server's page shows beside the API's English messages.
     */
    public static SortedMap<String, String> known(Language language) {
        ReportMeanings m = of(language);
        SortedMap<String, String> all = new TreeMap<>();
        Meanings.codes().forEach(code -> all.put(code, m.of(code)));
        return Collections.unmodifiableSortedMap(all);
    }

    /** What a check code means, in one or two sentences. */
    String of(String code) {
        return translated(code).orElseGet(() -> Meanings.of(code));
    }

    /** What a check code means in this language's own file (the parts of a family too), if it has it. */
    Optional<String> translated(String code) {
        if (language == Language.EN) {
            return Meanings.known(code);
        }
        Optional<String> whole = own.own(code);
        if (whole.isPresent()) {
            return whole;
        }
        List<String> parts = List.of(code.split("\\.", -1));
        if (parts.size() == 3 && parts.get(0).equals("signature")) {
            return sentence("part.subject." + parts.get(1), "part.outcome." + parts.get(2));
        }
        if (parts.size() == 3 && parts.get(0).equals("redaction") && parts.get(1).equals("signature")) {
            return sentence("part.subject.redaction", "part.outcome." + parts.get(2));
        }
        if (code.startsWith("c2pa.")) {
            return own.own("part.c2pa", code.substring(5));
        }
        return Meanings.known(code).isPresent() ? Optional.empty() : own.own("part.unknown", code);
    }

    private Optional<String> sentence(String subject, String outcome) {
        Optional<String> s = own.own(subject);
        Optional<String> o = own.own(outcome);
        return s.isPresent() && o.isPresent() ? own.own("part.sentence", s.get(), o.get()) : Optional.empty();
    }

    /** What a verdict says, in one sentence (lower case first, no full stop, as {@link Meanings#of(Verdict)}). */
    String of(Verdict verdict) {
        return language == Language.EN ? Meanings.of(verdict) : own.own("verdict." + verdict.name()).orElseGet(() -> Meanings.of(verdict));
    }

    /** What a report's verdict covers, and what it does not, as {@link Meanings#explain}. */
    String explain(VerificationReport r) {
        if (language == Language.EN) {
            return Meanings.explain(r);
        }
        List<String> unchecked = r.unchecked();
        boolean noMedia = r.withoutMedia();
        String covered = noMedia && (r.verdict() == Verdict.TRUSTED || r.verdict() == Verdict.VALID)
                ? own.own("verdict." + r.verdict().name() + ".recordsOnly").orElseGet(() -> of(r.verdict()))
                : of(r.verdict());
        if (noMedia) {
            // A proof-only bundle: the verdict speaks for the proof records alone, and says so once.
            covered = own.own("explain.noMedia", covered).orElse(covered);
            unchecked = unchecked.stream().filter(u -> !u.startsWith(VerificationReport.MEDIA_OF)).toList();
        }
        if (unchecked.isEmpty()) {
            return covered;
        }
        int shown = Math.min(unchecked.size(), Meanings.UNCHECKED_SHOWN);
        String list = String.join(", ", unchecked.subList(0, shown).stream()
                .map(u -> u.startsWith(VerificationReport.MEDIA_OF)
                        ? own.own("explain.mediaOf", u.substring(VerificationReport.MEDIA_OF.length())).orElse(u) : u).toList());
        if (unchecked.size() > shown) {
            list = own.own("explain.more", list, unchecked.size() - shown).orElse(list);
        }
        return own.own("explain.unchecked", covered, list).orElse(covered);
    }
}
