// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.DbusMock;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The capture snapshot from the system services that own the clock and the sensors, over the real D-Bus
 * protocol: a private bus (dbus-daemon) given to {@code proofmode} as its system bus, with python-dbusmock's
 * systemd-timedated and iio-sensor-proxy templates, a systemd-timesyncd object with its
 * {@code NTPMessage}, and the proxy's compass object. A proof records what they say; {@code inspect} and
 * {@code verify} show it; the proxy's sensors are released after reading.
 */
class SystemServicesIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path busDir;

    @TempDir
    Path dir;

    private static DbusMock bus;
    /** The last NTP exchange's destination time, microseconds since the epoch. */
    private static long lastSync;

    @BeforeAll
    static void services() throws Exception {
        bus = DbusMock.start(busDir);
        bus.template("timedated", "org.freedesktop.timedate1", "{\"NTP\": true}");
        bus.service("org.freedesktop.timesync1", "/org/freedesktop/timesync1", "org.freedesktop.timesync1.Manager");
        lastSync = (Instant.now().toEpochMilli() - 60_000) * 1000;
        // 10 ms each way; the server's clock is 1.5 ms ahead of ours, so it received and sent 1.5 ms "later"
        long t1 = lastSync - 20_100;
        long t2 = t1 + 10_000 + 1_500;
        long t3 = t2 + 100;
        long t4 = t3 - 1_500 + 10_000;
        bus.python("o = bus.get_object('org.freedesktop.timesync1', '/org/freedesktop/timesync1')\n"
                + "o.AddProperties('org.freedesktop.timesync1.Manager', {\n"
                + "  'ServerName': dbus.String('ntp.example.org'),\n"
                + "  'NTPMessage': dbus.Struct((dbus.UInt32(0), dbus.UInt32(4), dbus.UInt32(4), dbus.UInt32(2), dbus.Int32(-23),\n"
                + "      dbus.UInt64(1000), dbus.UInt64(2000), dbus.ByteArray(b'\\xc0\\x00\\x02\\x01'), dbus.UInt64(" + t1 + "),\n"
                + "      dbus.UInt64(" + t2 + "), dbus.UInt64(" + t3 + "), dbus.UInt64(" + t4 + "), dbus.Boolean(False),\n"
                + "      dbus.UInt64(7), dbus.UInt64(300)), signature='uuuuittayttttbtt')},\n"
                + "  dbus_interface=dbusmock.MOCK_IFACE)\n");
        // iio-sensor-proxy as its own D-Bus API has it (dbusmock's template puts the compass on the main object;
        // the proxy serves it on its own object, so the mock is built from dbusmock's objects instead)
        bus.service("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy");
        bus.python("o = bus.get_object('net.hadess.SensorProxy', '/net/hadess/SensorProxy')\n"
                + "i = 'net.hadess.SensorProxy'\n"
                + "o.AddProperties(i, {'HasAccelerometer': dbus.Boolean(True), 'AccelerometerOrientation': dbus.String('left-up'),\n"
                + "  'HasAmbientLight': dbus.Boolean(True), 'LightLevelUnit': dbus.String('lux'), 'LightLevel': dbus.Double(230.5),\n"
                + "  'HasProximity': dbus.Boolean(True), 'ProximityNear': dbus.Boolean(True)}, dbus_interface=dbusmock.MOCK_IFACE)\n"
                + "o.AddMethods(i, [(m + s, '', '', '') for m in ('Claim', 'Release') for s in ('Accelerometer', 'Light', 'Proximity')],\n"
                + "  dbus_interface=dbusmock.MOCK_IFACE)\n"
                + "o.AddObject('/net/hadess/SensorProxy/Compass', 'net.hadess.SensorProxy.Compass',\n"
                + "  {'HasCompass': dbus.Boolean(True), 'CompassHeading': dbus.Double(123.5)},\n"
                + "  [('ClaimCompass', '', '', ''), ('ReleaseCompass', '', '', '')], dbus_interface=dbusmock.MOCK_IFACE)\n");
    }

    @AfterAll
    static void stop() {
        if (bus != null) {
            bus.close();
        }
    }

    private ProofModeJar proofmode() {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        for (Map.Entry<String, String> e : bus.environment().entrySet()) {
            pm = pm.withEnv(e.getKey(), e.getValue());
        }
        return pm;
    }

    @Test
    void prove_recordsClockTrustSensorsAndEnvironment_fromTheServicesOnTheSystemBus() throws Exception {
        ProofModeJar pm = proofmode();
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 31);
        bus.python("for p in ('/net/hadess/SensorProxy', '/net/hadess/SensorProxy/Compass'):\n"
                + "    bus.get_object('net.hadess.SensorProxy', p).ClearCalls(dbus_interface=dbusmock.MOCK_IFACE)\n");

        ProcessResult r = pm.run("prove", "--j3m", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        assertThat(proof.path("Warning.Sensors").isMissingNode()).as(proof.toString()).isTrue();
        assertThat(JSON.readTree(pm.proofFolder(h).resolve(h + ".j3m.json").toFile()).at("/data/sensorCapture/0/sensorPlayback/lightMeterValue")
                .asDouble()).isEqualTo(230.5);
        assertThat(text(proof, "Device.Clock.Synchronised")).isEqualTo("true");
        assertThat(text(proof, "Device.Clock.Source")).isEqualTo("timedated");
        assertThat(text(proof, "Device.Clock.NTP")).isEqualTo("on");
        assertThat(text(proof, "Device.Clock.Service")).isEqualTo("systemd-timesyncd");
        assertThat(text(proof, "Device.Clock.Server")).isEqualTo("ntp.example.org");
        assertThat(text(proof, "Device.Clock.Stratum")).isEqualTo("2");
        assertThat(Instant.parse(text(proof, "Device.Clock.LastSync"))).isEqualTo(Instant.ofEpochMilli(lastSync / 1000));
        assertThat(text(proof, "Device.Clock.Offset")).isEqualTo("-0.001500");

        assertThat(text(proof, "Sensors.Orientation")).isEqualTo("left-up");
        assertThat(text(proof, "Sensors.Light")).isEqualTo("230.5 lux");
        assertThat(text(proof, "Sensors.Proximity")).isEqualTo("near");
        assertThat(text(proof, "Sensors.Heading")).isEqualTo("123.5 degrees");
        assertThat(text(proof, "Sensors.Source")).startsWith("iio-sensor-proxy");
        assertThat(Duration.between(Instant.parse(text(proof, "Sensors.Time")), Instant.parse(text(proof, "Proof Generated"))).abs())
                .isLessThan(Duration.ofMinutes(1));

        assertThat(text(proof, "Environment.Container")).isEqualTo(detectVirt("--container"));
        assertThat(text(proof, "Environment.VirtualMachine")).isEqualTo(detectVirt("--vm"));
        assertThat(text(proof, "Environment.DetectedBy")).isEqualTo("systemd-detect-virt");
        assertThat(text(proof, "Environment.Tracer")).isEqualTo("none");
        assertThat(proof.has("Environment.SecureBoot")).isTrue();
        assertThat(proof.has("Environment.TPM")).isTrue();
        assertThat(proof.has("Environment.JVM.Agents")).isTrue();

        // the claims were released: the proxy reads no sensor for us any more
        String calls = bus.python("for p in ('/net/hadess/SensorProxy', '/net/hadess/SensorProxy/Compass'):\n"
                + "    for c in bus.get_object('net.hadess.SensorProxy', p).GetCalls(dbus_interface=dbusmock.MOCK_IFACE):\n"
                + "        print(c[1])\n");
        for (String sensor : List.of("Accelerometer", "Light", "Proximity", "Compass")) {
            assertThat(calls.lines().filter(("Claim" + sensor)::equals).count()).as(calls).isOne();
            assertThat(calls.lines().filter(("Release" + sensor)::equals).count()).as(calls).isOne();
        }

        ProcessResult verify = pm.run("verify", pm.proofFolder(h).toString());
        assertThat(verify.stdout()).as(verify.describe())
                .contains("from timedated", "server ntp.example.org", "offset (s) -0.001500")
                .contains("container " + detectVirt("--container"), "tracer none");
    }

    @Test
    void inspect_showsWhatTheServicesWouldRecord_andSensorsOffRecordsNone() throws Exception {
        ProofModeJar pm = proofmode();
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 32);

        ProcessResult inspect = pm.run("inspect", photo.toString());
        ProcessResult off = pm.run("prove", "--no-sensors", photo.toString());

        assertThat(inspect.exitCode()).as(inspect.describe()).isZero();
        assertThat(inspect.stdout()).contains("Sensors.Orientation", "left-up", "Device.Clock.Server", "Environment.Container");
        assertThat(off.exitCode()).as(off.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        proof.fieldNames().forEachRemaining(n -> assertThat(n).doesNotStartWith("Sensors."));
    }

    @Test
    void prove_recordsNoReadingAndWarnsOnlyForAskedRadios_whenNoServiceRunsOnTheBus() throws Exception {
        try (DbusMock empty = DbusMock.start(dir.resolve("empty-bus"))) {
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("DBUS_SYSTEM_BUS_ADDRESS", empty.address());
            Path photo = TestMedia.jpeg(dir, "photo.jpg", 33);

            ProcessResult r = pm.run("prove", "--radios", "--location=48.1173,11.5167", photo.toString());

            assertThat(r.exitCode()).as(r.describe()).isZero();
            String h = TestMedia.sha256(photo);
            JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
            assertThat(proof.path("Warning.Sensors").isMissingNode()).as(proof.toString()).isTrue();
            // asked for, Bluetooth's absence is said; a desktop without a modem is not a problem
            assertThat(text(proof, "Warning.Bluetooth")).isEqualTo("BlueZ (org.bluez) is not running on the system bus");
            assertThat(proof.path("Warning.Cell").isMissingNode()).as(proof.toString()).isTrue();
            assertThat(proof.has("Cell.Count")).isFalse();
            assertThat(proof.path("Device.Clock.Source").asText()).isNotEqualTo("timedated");
            assertThat(proof.has("Sensors.Orientation")).isFalse();
        }
    }

    @Test
    void prove_warnsAndGoesOn_whenAServiceHangsOrAnswersGarbage() throws Exception {
        try (DbusMock odd = DbusMock.start(dir.resolve("odd-bus"))) {
            // timedated answers with the wrong types; the sensor proxy never returns from a claim
            odd.service("org.freedesktop.timedate1", "/org/freedesktop/timedate1", "org.freedesktop.timedate1");
            odd.service("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy");
            odd.python("t = bus.get_object('org.freedesktop.timedate1', '/org/freedesktop/timedate1')\n"
                    + "t.AddProperties('org.freedesktop.timedate1', {'NTPSynchronized': dbus.String('yes'), 'NTP': dbus.Int32(1)},"
                    + " dbus_interface=dbusmock.MOCK_IFACE)\n"
                    + "p = bus.get_object('net.hadess.SensorProxy', '/net/hadess/SensorProxy')\n"
                    + "p.AddProperties('net.hadess.SensorProxy', {'HasAccelerometer': dbus.Boolean(True),"
                    + " 'AccelerometerOrientation': dbus.String('normal')}, dbus_interface=dbusmock.MOCK_IFACE)\n"
                    + "p.AddMethods('net.hadess.SensorProxy', [('ClaimAccelerometer', '', '', 'time.sleep(30)'),"
                    + " ('ReleaseAccelerometer', '', '', '')], dbus_interface=dbusmock.MOCK_IFACE)\n");
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("DBUS_SYSTEM_BUS_ADDRESS", odd.address());
            Path photo = TestMedia.jpeg(dir, "photo.jpg", 34);

            ProcessResult r = pm.run("prove", "--radios", photo.toString());

            assertThat(r.exitCode()).as(r.describe()).isZero();
            String h = TestMedia.sha256(photo);
            JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
            assertThat(proof.path("Device.Clock.Source").asText()).isNotEqualTo("timedated");
            assertThat(proof.has("Device.Clock.NTP")).isFalse();
            assertThat(text(proof, "Warning.Sensors")).isEqualTo("iio-sensor-proxy: no answer from the system bus within 2000 ms");
            assertThat(proof.has("Sensors.Orientation")).isFalse();
            // Bluetooth, read at the same time, still says what it found
            assertThat(text(proof, "Warning.Bluetooth")).isEqualTo("BlueZ (org.bluez) is not running on the system bus");
        }
    }

    private static String text(JsonNode proof, String field) {
        assertThat(proof.has(field)).as(field + " in " + proof).isTrue();
        return proof.get(field).asText();
    }

    /** What {@code systemd-detect-virt} says on the machine running the test. */
    private static String detectVirt(String what) {
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("systemd-detect-virt").toString(), what), Map.of(),
                Duration.ofSeconds(10));
        return r.stdout().strip();
    }
}
