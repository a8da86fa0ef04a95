// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators of proof records and of the text inside them, biased towards what breaks codecs. */
final class RecordArbitraries {
    /** The names {@link ProofCsv} takes as the sign of a header row. */
    static final Set<String> CSV_HEADER_MARKERS = Set.of(
            "File Hash SHA256", "SHA256", "File Path", "File", "Proof Generated", "CurrentDateTime0GMT");

    private static final List<String> AWKWARD = List.of(
            ",", "\"", "\"\"", "\n", "\r", "\r\n", " ", "\t", "'", "\\", "\u0000", "\u001f", "#", ";", "{", "}", "[", "]",
            ":", "=", "é", "\u00a0", "\u2028", "\ufeff", "😀", "中文", "\u05d0", "\u0301", "null", "true", "1e999");

    private RecordArbitraries() {}

    /** One valid Unicode scalar value (no lone surrogates), as a string of one or two chars. */
    static Arbitrary<String> codePoint() {
        return Arbitraries.integers().between(0, Character.MAX_CODE_POINT)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .map(Character::toString);
    }

    /** Any Unicode text, often with separators, quotes, line breaks, and sometimes empty. */
    static Arbitrary<String> text() {
        Arbitrary<String> piece = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(AWKWARD)),
                Tuple.of(3, codePoint()),
                Tuple.of(4, Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(6)));
        return piece.list().ofMaxSize(10).map(parts -> String.join("", parts));
    }

    /** Any non-empty Unicode text. */
    static Arbitrary<String> name() {
        return text().filter(s -> !s.isEmpty());
    }

    /** Records of 1 to 10 fields with any non-empty names and any values, in generated order. */
    static Arbitrary<ProofRecord> anyRecord() {
        return Combinators.combine(name(), text()).as(Map::entry)
                .list().uniqueElements(Map.Entry::getKey).ofMinSize(1).ofMaxSize(10)
                .map(RecordArbitraries::toRecord);
    }

    /**
     * Records shaped like the proofs we write: {@code File Hash SHA256} first, then fields whose names
     * have no surrounding white space and whose values are not CSV header names (see the BUG tests in
     * {@code ProofCsvTest} for what happens otherwise).
     */
    static Arbitrary<ProofRecord> proofShapedRecord() {
        Arbitrary<String> hash = Arbitraries.strings().withChars("0123456789abcdef").ofLength(64);
        Arbitrary<String> names = name().filter(n -> n.equals(n.trim()) && !n.equals("File Hash SHA256"));
        Arbitrary<String> values = text().filter(v -> !CSV_HEADER_MARKERS.contains(v.trim()));
        Arbitrary<List<Map.Entry<String, String>>> rest = Combinators.combine(names, values).as(Map::entry)
                .list().uniqueElements(Map.Entry::getKey).ofMaxSize(10);
        return Combinators.combine(hash, rest).as((h, fields) -> {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("File Hash SHA256", h);
            fields.forEach(e -> m.put(e.getKey(), e.getValue()));
            return ProofRecord.of(m);
        });
    }

    private static ProofRecord toRecord(List<Map.Entry<String, String>> entries) {
        Map<String, String> m = new LinkedHashMap<>();
        entries.forEach(e -> m.put(e.getKey(), e.getValue()));
        return ProofRecord.of(m);
    }
}
