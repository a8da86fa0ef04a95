// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The sensor readings of a record in J3M, in CameraV's keys and units (hPa for pressure, lux for light). */
class J3mSensorsTest {
    @Test
    void write_putsSysfsReadingsInCameraVsKeys() throws Exception {
        ProofRecord r = ProofRecord.builder().put(ProofFields.PROOF_GENERATED, "2026-12-05T01:00:00Z")
                .put(ContextFields.SENSORS_ACCELERATION, "0.12 -9.81 0.3 m/s^2").put(ContextFields.SENSORS_LIGHT, "88.5 lux")
                .put(ContextFields.SENSORS_PRESSURE, "101.325 kPa").put(ContextFields.SENSORS_HUMIDITY, "41.25 %")
                .put(ContextFields.SENSORS_TEMPERATURE + "1", "47 degC").build();

        JsonNode p = new ObjectMapper().readTree(J3m.write(r)).at("/data/sensorCapture/0/sensorPlayback");

        assertThat(p.get("acc_x").asDouble()).isEqualTo(0.12);
        assertThat(p.get("acc_y").asDouble()).isEqualTo(-9.81);
        assertThat(p.get("acc_z").asDouble()).isEqualTo(0.3);
        assertThat(p.get("lightMeterValue").asDouble()).isEqualTo(88.5);
        assertThat(p.get("pressureHPAOrMBAR").asDouble()).isEqualTo(1013.25);
        assertThat(p.get("relativeHumidity").asDouble()).isEqualTo(41.25);
        assertThat(p.get("deviceTemperatureCelsius").asLong()).isEqualTo(47);
    }

    @Test
    void write_leavesOutLightWithoutACalibratedUnit() throws Exception {
        ProofRecord r = ProofRecord.builder().put(ProofFields.PROOF_GENERATED, "2026-12-05T01:00:00Z")
                .put(ContextFields.SENSORS_LIGHT, "40 vendor").build();

        JsonNode p = new ObjectMapper().readTree(J3m.write(r)).at("/data/sensorCapture/0/sensorPlayback");

        assertThat(p.has("lightMeterValue")).isFalse();
    }
}
