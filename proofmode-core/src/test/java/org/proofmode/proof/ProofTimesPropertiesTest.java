// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ProofTimesPropertiesTest {
    @Property(tries = 500, seed = "20251203")
    void parse_returnsFormattedInstant_anyInstantSinceYearZero(@ForAll("instants") Instant t) {
        assertThat(ProofTimes.parse(ProofTimes.format(t))).contains(t);
    }

    @Property(tries = 1000, seed = "20251203")
    void parse_neverThrows_anyText(@ForAll("timeLikeText") String text) {
        assertThat(ProofTimes.parse(text)).isNotNull();
    }

    @Provide
    Arbitrary<Instant> instants() {
        long min = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        return Arbitraries.longs().between(min, max).map(Instant::ofEpochSecond);
    }

    @Provide
    Arbitrary<String> timeLikeText() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.of("Monday", "November", ",", " ", "a.m.", "p.m.", "AM", "Eastern Standard Time", "EST",
                        "2022", "30", "9:49:08", "T", "Z", "-", "+", ":", "[", "]", "Europe/Paris", ".", "\u00a0"),
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(14),
                RecordArbitraries.codePoint());
        return piece.list().ofMaxSize(12).map(l -> String.join("", l));
    }
}
