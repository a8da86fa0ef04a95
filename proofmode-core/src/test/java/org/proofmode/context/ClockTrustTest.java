// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What chrony and systemd-timesyncd say about the clock, as they say it ({@code chronyc -c tracking} as
 * chrony 4.3 prints it; timesyncd's {@code NTPMessage} as D-Bus delivers it). The D-Bus exchange itself is
 * tested against timedated and timesyncd mocks on a private bus in the command line's {@code SystemServicesIT}.
 */
class ClockTrustTest {
    @Test
    void chrony_readsServerStratumLastSyncAndOffset() {
        Map<String, String> f = new LinkedHashMap<>();

        ClockTrust.chrony("A9FEA97B,169.254.169.123,4,1764899062.512345678,-0.000012345,0.000001234,0.000023456,"
                + "-12.345,-0.001,0.012,0.001234567,0.000345678,1025.6,Normal\n", f);

        assertThat(f).containsEntry("Device.Clock.Synchronised", "true").containsEntry("Device.Clock.Source", "chronyc")
                .containsEntry("Device.Clock.Service", "chronyd").containsEntry("Device.Clock.Server", "169.254.169.123")
                .containsEntry("Device.Clock.Stratum", "4").containsEntry("Device.Clock.LastSync", "2025-12-05T01:44:22.512Z")
                // chrony's correction is what the clock needs; negated, the clock is 12 µs ahead
                .containsEntry("Device.Clock.Offset", "0.000012");
    }

    @Test
    void chrony_saysUnsynchronised_andNoServer_beforeItsFirstExchange() {
        Map<String, String> f = new LinkedHashMap<>();

        ClockTrust.chrony("00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,1.000000000,"
                + "1.000000000,0.0,Not synchronised\n", f);

        assertThat(f).containsEntry("Device.Clock.Synchronised", "false").doesNotContainKeys("Device.Clock.Server",
                "Device.Clock.Stratum", "Device.Clock.LastSync", "Device.Clock.Offset");
    }

    @Test
    void chrony_ignoresGarbage() {
        Map<String, String> f = new LinkedHashMap<>();

        ClockTrust.chrony("506 Cannot talk to daemon\n", f);

        assertThat(f).isEmpty();
    }

    @Test
    void ntpMessage_computesTheOffsetFromTheFourTimestamps() {
        Map<String, String> f = new LinkedHashMap<>();
        long t1 = 1_764_899_000_000_000L;
        // 10 ms each way, the server 1.5 ms ahead
        List<Object> m = List.of(0L, 4L, 4L, 2L, -23L, 1000L, 2000L, List.of(192L, 0L, 2L, 1L), t1, t1 + 11_500, t1 + 11_600,
                t1 + 20_100, false, 7L, 300L);

        ClockTrust.ntpMessage(m, f);

        assertThat(f).containsEntry("Device.Clock.Stratum", "2").containsEntry("Device.Clock.Offset", "-0.001500")
                .containsEntry("Device.Clock.LastSync", "2025-12-05T01:43:20.020Z");
    }

    @Test
    void ntpMessage_ignoresAMessageOfTheWrongShape() {
        Map<String, String> f = new LinkedHashMap<>();

        ClockTrust.ntpMessage(List.of("x", 1L), f);
        ClockTrust.ntpMessage("not a struct", f);

        assertThat(f).isEmpty();
    }
}
