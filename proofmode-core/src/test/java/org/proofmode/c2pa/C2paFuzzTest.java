// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Fuzz targets for the C2PA readers of untrusted bytes: JUMBF boxes, CBOR, COSE_Sign1, manifest
 * stores, and whole assets. Each accepts only its documented outcome: a result, or
 * {@link C2paFormatException}; the asset reader never throws and reports what it found as statuses.
 * In a normal build these replay the seeds in {@code C2paFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1}
 * fuzzes (see bench/fuzz.sh).
 */
class C2paFuzzTest {
    private static final C2paReader READER = new C2paReader(List.of(), List.of());
    /** Equal values: integers compare by value whatever their width (CBOR writes them minimal). */
    private static final java.util.Comparator<JsonNode> SAME_VALUE = (a, b) -> {
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return a.bigIntegerValue().compareTo(b.bigIntegerValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    @FuzzTest(maxDuration = "2m")
    void jumbf(byte[] data) {
        try {
            JumbfBox.Super box = Jumbf.parseSuperBox(data);
            assertThat(Jumbf.parseSuperBox(Jumbf.write(box)).payload()).isEqualTo(box.payload());
        } catch (C2paFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void cbor(byte[] data) {
        try {
            JsonNode n = Cbor.read(data);
            assertThat(Cbor.read(Cbor.write(n)).equals(SAME_VALUE, n)).as("round trip of %s", n).isTrue();
        } catch (C2paFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void cose(byte[] data) {
        try {
            CoseSign1 c = CoseSign1.parse(data);
            assertThat(c.verifies(data)).isFalse();
            assertThat(c.timeStampToken()).isNotNull();
        } catch (C2paFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void manifestStore(byte[] data) {
        try {
            ManifestStore s = ManifestStore.parse(data);
            assertThat(s.active().assertionRefs()).isNotNull();
            for (JsonNode ref : s.active().assertionRefs()) {
                assertThat(s.resolve(s.active(), ref.path("url").asText(""))).isNotNull();
            }
        } catch (C2paFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "2m")
    void asset(byte[] data) {
        Optional<C2paReport> r = READER.read(data);
        r.ifPresent(report -> {
            assertThat(report.statuses()).isNotEmpty();
            if (report.state() != ValidationState.INVALID) {
                assertThat(report.has(C2paStatus.Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
            }
        });
    }
}
