// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class ExternalToolTest {
    private static final String MISSING = "proofmode-no-such-tool-7c1e";

    @Test
    void find_returnsPath_programOnPath() {
        assertThat(ExternalTool.find("sh")).hasValueSatisfying(p -> assertThat(p.getFileName()).hasToString("sh"));
    }

    @Test
    void find_returnsEmpty_programAbsent() {
        assertThat(ExternalTool.find(MISSING)).isEmpty();
    }

    @Test
    void require_failsNamingPackage_programAbsent() {
        assertThatThrownBy(() -> ExternalTool.require(MISSING))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("apt-get install " + MISSING)
                .hasMessageContaining(".ci/run");
    }

    @Test
    void run_capturesStreamsExitCodeAndEnv_commandRuns() {
        ProcessResult r = ExternalTool.run(List.of("sh", "-c", "echo out $X; echo err >&2; exit 7"),
                Map.of("X", "42"), Duration.ofSeconds(30));
        assertThat(r.exitCode()).isEqualTo(7);
        assertThat(r.stdout()).isEqualTo("out 42\n");
        assertThat(r.stderr()).isEqualTo("err\n");
        assertThat(r.succeeded()).isFalse();
        assertThat(r.describe()).contains("exited 7", "out 42", "err");
    }

    @Test
    void run_passesVariable_scrubbedNameGivenExplicitly() {
        ProcessResult r = ExternalTool.run(List.of("sh", "-c", "echo \"[${PROOFMODE_PASSPHRASE-unset}]\""),
                Map.of("PROOFMODE_PASSPHRASE", "p"), Duration.ofSeconds(30));
        assertThat(r.stdout()).isEqualTo("[p]\n");
    }

    @Test
    void run_failsAndKills_timeoutPassed() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> ExternalTool.run(List.of("sleep", "30"), Map.of(), Duration.ofMillis(300)))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("timed out");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }
}
