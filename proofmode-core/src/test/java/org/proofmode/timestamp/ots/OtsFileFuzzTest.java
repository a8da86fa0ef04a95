// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the {@code .ots} parser: any bytes either parse, and then write back to bytes that parse to
 * the same, or fail with {@link OtsFormatException}; nothing else may escape. In a normal build this
 * replays the seeds in {@code OtsFileFuzzTestInputs/parse/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class OtsFileFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void parse(byte[] data) {
        OtsFile f;
        try {
            f = OtsFile.parse(data);
        } catch (OtsFormatException expected) {
            return;
        }
        byte[] written = f.toBytes();
        try {
            assertThat(OtsFile.parse(written).toBytes()).isEqualTo(written);
        } catch (OtsFormatException e) {
            throw new AssertionError("our own output does not parse: " + e.getMessage(), e);
        }
    }
}
