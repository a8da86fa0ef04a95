// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Fuzz target for the JPEG segment walk over untrusted bytes. Its documented outcome is a {@link
 * JpegSegments.Walk} for any input: no exception, no read outside the bytes (the source fails the test on
 * one), every segment handed over inside the file. In a normal build this replays the seeds in
 * {@code JpegSegmentsFuzzTestInputs/walk/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class JpegSegmentsFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void walk(byte[] data) throws IOException {
        JpegSegments.Walk w = JpegSegments.walk(new JpegSegmentsTest.Bytes(data), 4096, m -> true, s -> {
            assertThat(s.end()).isLessThanOrEqualTo(data.length);
            return true;
        });
        assertThat(w.at()).isBetween(0L, (long) data.length);
        assertThat(w.markers()).isBetween(0, 4096);
    }
}
