// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProofTimesTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "2022-11-30T14:49:08Z                                               | 2022-11-30T14:49:08Z",
        "2022-11-30T14:49:08.250Z                                           | 2022-11-30T14:49:08.250Z",
        "2022-11-30T09:49:08-05:00                                          | 2022-11-30T14:49:08Z",
        "2022-11-30T15:49:08+01:00[Europe/Paris]                            | 2022-11-30T14:49:08Z",
        "'  2022-11-30T14:49:08Z  '                                         | 2022-11-30T14:49:08Z",
        "1481751502                                                         | 2016-12-14T21:38:22Z",
        "1481751502000                                                      | 2016-12-14T21:38:22Z",
        "'Wednesday, November 30, 2022 9:49:08 a.m. Eastern Standard Time'  | 2022-11-30T14:49:08Z",
        "Wednesday November 30 2022 9:49:08 a.m. Eastern Standard Time      | 2022-11-30T14:49:08Z",
        "Monday  June 6  2022 10:29:28 a.m. Eastern Daylight Time           | 2022-06-06T14:29:28Z",
        "'Monday, June 20, 2022 1:11:29 p.m. Eastern Daylight Time'         | 2022-06-20T17:11:29Z",
        "'Wednesday, November 30, 2022 9:49:08 AM Eastern Standard Time'    | 2022-11-30T14:49:08Z",
        "Wed Nov 30 09:49:08 EST 2022                                       | 2022-11-30T14:49:08Z",
    })
    void parse_returnsInstant_knownForms(String text, String expected) {
        assertThat(ProofTimes.parse(text)).contains(Instant.parse(expected));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", " ", "\t\n", "yesterday", "12345", "12345678901234", "2022-13-45T99:00:00Z",
        "2022-11-30T14:49:08", "Wednesday, November 30, 2022", "9:49:08 a.m.", "0x5f5e100", "-1481751502",
        "Mittwoch, 30. November 2022 09:49:08 Nordamerikanische Ostküsten-Normalzeit"})
    void parse_empty_unparseable(String text) {
        assertThat(ProofTimes.parse(text)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"2026-12-03T07:20:00.999Z, 2026-12-03T07:20:00Z", "1970-01-01T00:00:00Z, 1970-01-01T00:00:00Z"})
    void format_isoUtcSeconds_anyInstant(String instant, String expected) {
        assertThat(ProofTimes.format(Instant.parse(instant))).isEqualTo(expected);
    }
}
