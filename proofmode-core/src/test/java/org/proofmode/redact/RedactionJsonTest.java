// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.Box;

class RedactionJsonTest {
    private static final String H1 = "a".repeat(64);
    private static final String H2 = "b".repeat(64);

    static RedactionRecord sample() {
        return new RedactionRecord(new RedactionRecord.Image(H2, "image/jpeg", 640, 480),
                new RedactionRecord.Original(new RedactionRecord.Image(H1, "image/jpeg", 640, 480), 6,
                        Optional.of("0123456789abcdef0123456789abcdef01234567")),
                List.of(new Region(new Box(10, 20, 30, 40), Method.PIXELATE, Region.Source.MANUAL),
                        new Region(new Box(100, 100, 64, 64), Method.BLUR, Region.Source.FACE),
                        new Region(new Box(0, 0, 640, 10), Method.FILL, Region.Source.MANUAL)),
                StripPolicy.LOCATION, List.of("GPS: GPS Latitude", "Exif Thumbnail"), List.of("Exif IFD0: Make"),
                "proofmode-jvm test", Instant.parse("2026-12-03T10:00:00Z"));
    }

    @Test
    void read_givesBackWhatWasWritten() {
        RedactionRecord r = sample();
        RedactionRecord back = RedactionJson.read(RedactionJson.write(r), "r.json");
        assertThat(back).isEqualTo(r);
        assertThat(back.original().signer()).contains("0123456789ABCDEF0123456789ABCDEF01234567");
        assertThat(back.summary()).isEqualTo("3 regions (1 blur, 1 fill, 1 pixelate); metadata stripped: location");
    }

    @Test
    void write_namesEveryPartInJson() {
        String json = new String(RedactionJson.write(sample()), StandardCharsets.UTF_8);
        assertThat(json).contains("\"type\" : \"org.proofmode.redaction\"", "\"version\" : 1", "\"sha256\" : \"" + H1 + "\"",
                "\"method\" : \"blur\"", "\"source\" : \"face\"", "\"strip\" : \"location\"", "\"created\" : \"2026-12-03T10:00:00Z\"");
    }

    @Test
    void read_refusesAMalformedRecord_asBadData() {
        String good = new String(RedactionJson.write(sample()), StandardCharsets.UTF_8);
        for (String bad : List.of(
                "[]",
                good.replace("\"method\" : \"blur\"", "\"method\" : \"smudge\""),
                good.replace("\"x\" : 10", "\"x\" : 630"),
                good.replace("\"x\" : 10", "\"x\" : \"10\""),
                good.replace("\"type\" : \"org.proofmode.redaction\"", "\"type\" : \"other\""),
                good.replace(H1, "xyz"),
                good.replace("\"created\" : \"2026-12-03T10:00:00Z\"", "\"created\" : \"yesterday\""),
                good.replace("\"orientation\" : 6", "\"orientation\" : 9"),
                good.substring(0, good.length() / 2))) {
            assertThatThrownBy(() -> RedactionJson.read(bad.getBytes(StandardCharsets.UTF_8), "r.json"))
                    .as(bad).isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
        }
    }

    @Test
    void read_refusesAnotherVersion_asUnsupported() {
        String json = new String(RedactionJson.write(sample()), StandardCharsets.UTF_8).replace("\"version\" : 1", "\"version\" : 2");
        assertThatThrownBy(() -> RedactionJson.read(json.getBytes(StandardCharsets.UTF_8), "r.json"))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.UNSUPPORTED));
    }
}
