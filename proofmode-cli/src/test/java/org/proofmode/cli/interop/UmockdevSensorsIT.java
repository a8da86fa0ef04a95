// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ProcessResult;

/**
 * The kernel's sensor trees as the program meets them in {@code /sys}, not under a test root: the jar runs
 * under {@code umockdev-run}, which replays a recorded laptop ({@code umockdev/laptop-sensors.umockdev}:
 * the sensor hub's accelerometer, a magnetometer mounted turned 90 degrees, the light sensor, a proximity
 * sensor with its near level, a BME280 and the CPU's temperature chip) in place of the machine's own
 * devices. The laptop lies flat, face up, its top edge to the east, in a field of 0.2 gauss north and
 * 0.4 gauss down; no system bus, so every reading comes from sysfs.
 */
class UmockdevSensorsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private ProcessResult prove(Path photo, String... options) {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=" + dir.resolve("no-bus"));
        List<String> args = new java.util.ArrayList<>(List.of("prove"));
        args.addAll(List.of(options));
        args.add(photo.toString());
        Path recording = Path.of(System.getProperty("user.dir"), "src", "test", "resources", "umockdev", "laptop-sensors.umockdev");
        return pm.runWrapped(List.of("umockdev-run", "-d", recording.toString(), "--"), args.toArray(String[]::new));
    }

    private JsonNode proof(Path photo) throws Exception {
        String h = TestMedia.sha256(photo);
        return JSON.readTree(ProofModeJar.at(dir.resolve("home")).proofFolder(h).resolve(h + ".proof.json").toFile());
    }

    @Test
    void prove_readsTheReplayedLaptopsSensors_fromSys() throws Exception {
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 51);

        ProcessResult r = prove(photo);

        assertThat(r.exitCode()).as(r.describe()).isZero();
        JsonNode p = proof(photo);
        assertThat(p.path("Warning.Sensors").isMissingNode()).as(p.toString()).isTrue();
        assertThat(p.get("Sensors.Source").asText()).isEqualTo("sysfs");
        assertThat(p.get("Sensors.Acceleration").asText()).isEqualTo("0 0 9.81 m/s^2");
        assertThat(p.get("Sensors.Acceleration.Sensor").asText()).isEqualTo("iio accel_3d");
        // the magnetometer as read, and the heading in the device's frame after its mount matrix
        assertThat(p.get("Sensors.MagneticField").asText()).isEqualTo("0 -0.2 -0.4 gauss");
        assertThat(p.get("Sensors.Heading").asText()).isEqualTo("90 degrees");
        assertThat(p.get("Sensors.Heading.Sensor").asText()).isEqualTo("iio accel_3d + iio magn_3d (magnetic, uncalibrated)");
        assertThat(p.get("Sensors.Light").asText()).isEqualTo("88.5 lux");
        assertThat(p.get("Sensors.Proximity").asText()).isEqualTo("near");
        assertThat(p.get("Sensors.Proximity.Sensor").asText()).isEqualTo("iio vcnl4000");
        assertThat(p.get("Sensors.Humidity").asText()).isEqualTo("41.25 %");
        assertThat(p.get("Sensors.Temperature.1").asText()).isEqualTo("23.61 degC");
        assertThat(p.get("Sensors.Temperature.2").asText()).isEqualTo("47 degC");
        assertThat(p.get("Sensors.Temperature.2.Sensor").asText()).isEqualTo("hwmon coretemp Package id 0");
        // an altimeter tells a place: pressure only with location on
        assertThat(p.has("Sensors.Pressure")).isFalse();
    }

    @Test
    void prove_recordsPressure_withLocationOn() throws Exception {
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 52);

        ProcessResult r = prove(photo, "--location=48.1173,11.5167");

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(proof(photo).get("Sensors.Pressure").asText()).isEqualTo("101.325 kPa");
    }
}
