// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class VerificationTest {
    @Test
    void shown_writesTheBoundInItsLargestWholeUnit() {
        assertThat(Verification.shown(Duration.ofSeconds(60))).isEqualTo("60 s");
        assertThat(Verification.shown(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(Verification.shown(Duration.ofMillis(1))).isEqualTo("1 ms");
        assertThat(Verification.shown(Duration.ofNanos(2000))).isEqualTo("2 µs");
        assertThat(Verification.shown(Duration.ofNanos(1))).isEqualTo("1 ns");
    }
}
