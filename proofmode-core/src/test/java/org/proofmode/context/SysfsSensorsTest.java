// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The kernel's sensor trees as a laptop has them, laid out under a temporary root exactly as in
 * {@code /sys} (IIO devices with {@code name}, {@code _raw}, {@code _scale}, {@code _offset} and
 * {@code _input} channels; hwmon chips with {@code tempN_input} and {@code tempN_label}), and a system bus
 * that is not there: the sensor source falls back to them.
 */
class SysfsSensorsTest {
    @TempDir
    Path root;

    @Test
    void read_scalesRawChannels_andTakesInputChannelsInTheirUnits() throws IOException {
        laptop();

        Map<String, String> f = new SysfsSensors(new SystemFiles(root), false).read();

        // (raw + offset) * scale: 0.009582 m/s^2 per count (the accelerometer of a ThinkPad's sensor hub)
        assertThat(f).containsEntry("Sensors.Acceleration", "0.114984 -9.39036 0.28746 m/s^2")
                .containsEntry("Sensors.Acceleration.Sensor", "iio accel_3d")
                .containsEntry("Sensors.Light", "88.5 lux").containsEntry("Sensors.Light.Sensor", "iio als")
                .containsEntry("Sensors.Humidity", "41.25 %").containsEntry("Sensors.Humidity.Sensor", "iio bme280")
                .containsEntry("Sensors.MagneticField", "0.2 -0.1 0.45 gauss")
                .containsEntry("Sensors.Temperature.1", "23.61 degC").containsEntry("Sensors.Temperature.1.Sensor", "iio bme280")
                .containsEntry("Sensors.Temperature.2", "47 degC")
                .containsEntry("Sensors.Temperature.2.Sensor", "hwmon coretemp Package id 0")
                .containsEntry("Sensors.Temperature.3", "45.5 degC").containsEntry("Sensors.Temperature.3.Sensor", "hwmon coretemp Core 0")
                .containsEntry("Sensors.Temperature.4", "38 degC").containsEntry("Sensors.Temperature.4.Sensor", "hwmon acpitz temp1");
        assertThat(f).doesNotContainKey("Sensors.Pressure");
    }

    @Test
    void read_recordsPressure_onlyWhenLocationIsOn() throws IOException {
        laptop();

        assertThat(new SysfsSensors(new SystemFiles(root), true).read()).containsEntry("Sensors.Pressure", "101.325 kPa")
                .containsEntry("Sensors.Pressure.Sensor", "iio bme280");
    }

    @Test
    void read_derivesAHeading_fromGravityAndTheMagneticField_inTheDevicesFrame() throws IOException {
        // a tablet lying face up, its top edge to the east: the field (north and down, as in Europe) lies along -x
        write("sys/bus/iio/devices/iio:device0/name", "accel_3d");
        accel(0, 0, 981);
        write("sys/bus/iio/devices/iio:device1/name", "magn_3d");
        magn(-2000, 0, -4000);

        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Heading", "90 degrees")
                .containsEntry("Sensors.Heading.Sensor", "iio accel_3d + iio magn_3d (magnetic, uncalibrated)");

        // top edge to the north-west, tilted 30 degrees towards the user: the tilt does not change the heading
        double t = Math.toRadians(30);
        double c = Math.cos(Math.toRadians(45));
        double s = Math.sin(Math.toRadians(45));
        // up and north in the device's frame (its x to the north-east, its y to the north-west, then tilted about x);
        // the accelerometer reads up, the field is 0.2 north and 0.4 down
        double[] up = {0, Math.sin(t), Math.cos(t)};
        double[] north = {s, c * Math.cos(t), -c * Math.sin(t)};
        accel(up[0] * 981, up[1] * 981, up[2] * 981);
        magn(north[0] * 2000 - up[0] * 4000, north[1] * 2000 - up[1] * 4000, north[2] * 2000 - up[2] * 4000);

        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Heading", "315 degrees");
    }

    @Test
    void read_turnsEachSensorIntoTheDevicesFrame_byItsMountMatrix() throws IOException {
        // the magnetometer is mounted turned 90 degrees: its x is the device's y
        write("sys/bus/iio/devices/iio:device0/name", "accel_3d");
        accel(0, 0, 981);
        write("sys/bus/iio/devices/iio:device1/name", "magn_3d");
        magn(2000, 0, -4000);
        write("sys/bus/iio/devices/iio:device1/in_magn_mount_matrix", "0, -1, 0; 1, 0, 0; 0, 0, 1");

        // read as mounted: the field lies along the device's +y, so the top edge points north
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Heading", "0 degrees")
                .containsEntry("Sensors.MagneticField", "0.2 0 -0.4 gauss");
    }

    @Test
    void read_recordsNoHeading_inFreeFall_orWithoutAMagnetometer() throws IOException {
        write("sys/bus/iio/devices/iio:device0/name", "accel_3d");
        accel(0, 0, 0);
        write("sys/bus/iio/devices/iio:device1/name", "magn_3d");
        magn(-2000, 0, -4000);
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).doesNotContainKey("Sensors.Heading");

        Files.delete(root.resolve("sys/bus/iio/devices/iio:device1/in_magn_x_raw"));
        accel(0, 0, 981);
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).doesNotContainKey("Sensors.Heading")
                .containsKey("Sensors.Acceleration");
    }

    @Test
    void read_proximity_nearOrFarByTheDriversNearLevel_elseTheRawCount() throws IOException {
        write("sys/bus/iio/devices/iio:device0/name", "vcnl4000");
        write("sys/bus/iio/devices/iio:device0/in_proximity_raw", "412");
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Proximity", "412 (raw, larger is nearer)")
                .containsEntry("Sensors.Proximity.Sensor", "iio vcnl4000");

        write("sys/bus/iio/devices/iio:device0/in_proximity_nearlevel", "300");
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Proximity", "near");
        write("sys/bus/iio/devices/iio:device0/in_proximity_raw", "120");
        assertThat(new SysfsSensors(new SystemFiles(root), false).read()).containsEntry("Sensors.Proximity", "far");
    }

    private void accel(double x, double y, double z) throws IOException {
        write("sys/bus/iio/devices/iio:device0/in_accel_x_raw", Double.toString(x));
        write("sys/bus/iio/devices/iio:device0/in_accel_y_raw", Double.toString(y));
        write("sys/bus/iio/devices/iio:device0/in_accel_z_raw", Double.toString(z));
        write("sys/bus/iio/devices/iio:device0/in_accel_scale", "0.01");
    }

    private void magn(double x, double y, double z) throws IOException {
        write("sys/bus/iio/devices/iio:device1/in_magn_x_raw", Double.toString(x));
        write("sys/bus/iio/devices/iio:device1/in_magn_y_raw", Double.toString(y));
        write("sys/bus/iio/devices/iio:device1/in_magn_z_raw", Double.toString(z));
        write("sys/bus/iio/devices/iio:device1/in_magn_scale", "0.0001");
    }

    @Test
    void read_findsNothing_onAMachineWithoutSensors() {
        assertThat(new SysfsSensors(new SystemFiles(root), true).read()).isEmpty();
    }

    @Test
    void contribute_fallsBackToSysfs_whenThereIsNoSystemBus_withoutAWarning() throws Exception {
        laptop();
        SensorSource s = new SensorSource(SystemBus.at("unix:path=" + root.resolve("no-bus")), new SysfsSensors(new SystemFiles(root), false));
        Path photo = Files.write(root.resolve("photo.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF});
        ProofRecord.Builder b = ProofRecord.builder();

        s.contribute(new MediaFile(photo, new MediaType(MediaKind.IMAGE, "image/jpeg"), 3, Instant.now()), b);

        Map<String, String> f = b.build().fields();
        assertThat(f).containsEntry("Sensors.Source", "sysfs").containsEntry("Sensors.Light", "88.5 lux").containsKey("Sensors.Time")
                .doesNotContainKey("Warning.Sensors");
    }

    /** An accelerometer and a light sensor (sensor hub), a BME280 (pressure, humidity, temperature), a magnetometer, two hwmon chips. */
    private void laptop() throws IOException {
        String iio = "sys/bus/iio/devices/";
        write(iio + "iio:device0/name", "accel_3d");
        write(iio + "iio:device0/in_accel_x_raw", "12");
        write(iio + "iio:device0/in_accel_y_raw", "-980");
        write(iio + "iio:device0/in_accel_z_raw", "30");
        write(iio + "iio:device0/in_accel_offset", "0");
        write(iio + "iio:device0/in_accel_scale", "0.009582");
        write(iio + "iio:device1/name", "als");
        write(iio + "iio:device1/in_illuminance_raw", "885");
        write(iio + "iio:device1/in_illuminance_scale", "0.1");
        write(iio + "iio:device2/name", "bme280");
        write(iio + "iio:device2/in_pressure_input", "101.325");
        write(iio + "iio:device2/in_humidityrelative_input", "41250");
        write(iio + "iio:device2/in_temp_input", "23610");
        write(iio + "iio:device10/name", "magn_3d");
        write(iio + "iio:device10/in_magn_x_raw", "2000");
        write(iio + "iio:device10/in_magn_y_raw", "-1000");
        write(iio + "iio:device10/in_magn_z_raw", "4500");
        write(iio + "iio:device10/in_magn_scale", "0.0001");
        write(iio + "trigger0/name", "not a device");
        write("sys/class/hwmon/hwmon2/name", "coretemp");
        write("sys/class/hwmon/hwmon2/temp1_input", "47000");
        write("sys/class/hwmon/hwmon2/temp1_label", "Package id 0");
        write("sys/class/hwmon/hwmon2/temp2_input", "45500");
        write("sys/class/hwmon/hwmon2/temp2_label", "Core 0");
        write("sys/class/hwmon/hwmon10/name", "acpitz");
        write("sys/class/hwmon/hwmon10/temp1_input", "38000");
        write("sys/class/hwmon/hwmon10/temp1_crit", "128000");
    }

    private void write(String relative, String text) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }
}
