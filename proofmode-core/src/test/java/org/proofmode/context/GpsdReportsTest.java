// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** gpsd report lines as gpsd 3.22 printed them (fed by gpsfake), read by {@link GpsdClient#tpv}. */
class GpsdReportsTest {
    @Test
    void tpv_readsAFix_from3dReport() {
        Fix f = GpsdClient.tpv("{\"class\":\"TPV\",\"device\":\"/dev/pts/1\",\"mode\":3,\"time\":\"2026-12-03T08:23:05.000Z\","
                + "\"ept\":0.005,\"lat\":48.117300000,\"lon\":11.516666667,\"altHAE\":592.3000,\"altMSL\":545.4000,"
                + "\"alt\":545.4000,\"eph\":17.100}").orElseThrow();

        assertThat(f.latitude()).isEqualTo(48.1173);
        assertThat(f.longitude()).isEqualTo(11.516666667);
        assertThat(f.altitude().getAsDouble()).isEqualTo(545.4);
        assertThat(f.accuracy().getAsDouble()).isEqualTo(17.1);
        assertThat(f.time()).contains(Instant.parse("2026-12-03T08:23:05Z"));
        assertThat(f.provider()).isEqualTo(Fix.Provider.GPSD);
    }

    @Test
    void tpv_givesNothing_forNoFixOtherClassesOrGarbage() {
        assertThat(GpsdClient.tpv("{\"class\":\"TPV\",\"mode\":1}")).isEmpty();
        assertThat(GpsdClient.tpv("{\"class\":\"TPV\",\"mode\":2}")).isEmpty();
        assertThat(GpsdClient.tpv("{\"class\":\"SKY\",\"mode\":3,\"lat\":1,\"lon\":2}")).isEmpty();
        assertThat(GpsdClient.tpv("{\"class\":\"TPV\",\"mode\":3,\"lat\":91,\"lon\":2}")).isEmpty();
        assertThat(GpsdClient.tpv("{\"class\":\"VERSION\"")).isEmpty();
        assertThat(GpsdClient.tpv("not json")).isEmpty();
    }

    @Test
    void tpv_keepsA2dFixWithoutAltitude() {
        Fix f = GpsdClient.tpv("{\"class\":\"TPV\",\"mode\":2,\"lat\":-33.86,\"lon\":151.2,\"alt\":12,\"epx\":3,\"epy\":4}").orElseThrow();

        assertThat(f.altitude()).isEmpty();
        assertThat(f.accuracy().getAsDouble()).isEqualTo(5.0);
        assertThat(f.time()).isEmpty();
    }

    @Test
    void parse_readsManualPositions_andRefusesNonsense() {
        Fix f = Fix.parse("-33.8568, 151.2153,25");

        assertThat(f.latitude()).isEqualTo(-33.8568);
        assertThat(f.accuracy().getAsDouble()).isEqualTo(25);
        assertThat(f.provider()).isEqualTo(Fix.Provider.MANUAL);
        for (String bad : new String[] {"48.1", "48.1,11.5,3,4", "north,east", "91,0", "0,181", "1,2,-5", "NaN,1"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fix.parse(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
