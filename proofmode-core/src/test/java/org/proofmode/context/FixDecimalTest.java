// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/** How coordinates and distances are written into proofs: the same text as earlier versions wrote. */
class FixDecimalTest {
    /** How earlier versions formatted: {@code %.7f}, trailing zeros and a trailing point cut. */
    private static String earlier(double v) {
        String s = String.format(Locale.ROOT, "%.7f", v);
        s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        return s.equals("-0") ? "0" : s;
    }

    @Property(tries = 5000)
    void decimal_writesWhatEarlierVersionsWrote(@ForAll @DoubleRange(min = -20000, max = 20000) double v) {
        assertThat(Fix.decimal(v)).isEqualTo(earlier(v));
    }

    @Property(tries = 2000)
    void decimal_writesWhatEarlierVersionsWrote_atEightDecimals(@ForAll @DoubleRange(min = -180, max = 180) double v) {
        double eighths = Math.round(v * 1e8) / 1e8; // ties at the eighth decimal are where rounding differs, if anywhere
        assertThat(Fix.decimal(eighths)).isEqualTo(earlier(eighths));
    }

    @Test
    void decimal_cutsZeros_andHasNoNegativeZeroNorExponent() {
        assertThat(Fix.decimal(48.1173)).isEqualTo("48.1173");
        assertThat(Fix.decimal(12.0)).isEqualTo("12");
        assertThat(Fix.decimal(-0.00000001)).isEqualTo("0");
        assertThat(Fix.decimal(-0.0)).isEqualTo("0");
        assertThat(Fix.decimal(1e-7)).isEqualTo("0.0000001");
        assertThat(Fix.decimal(0.15000000500000001)).isEqualTo(earlier(0.15000000500000001));
        assertThat(Fix.decimal(123456789.123)).isEqualTo("123456789.123");
    }
}
