// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.context.IdentifierHasher;
import org.proofmode.testkit.DbusMock;
import org.proofmode.testkit.ProcessResult;

/**
 * Bluetooth from BlueZ and cells from ModemManager and oFono, over the real D-Bus protocol on a private
 * bus: python-dbusmock's bluez5 and ofono templates, and a ModemManager built from dbusmock objects with
 * its ObjectManager and {@code Modem.GetCellInfo} (the template set has none). Radios are recorded only
 * with {@code radios} on, cells only with {@code location} on, and no Bluetooth address appears in the
 * clear in any file of the proof.
 */
class RadiosAndCellsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PIXEL = "A4:C1:38:0E:5F:21";
    private static final String HEADSET = "00:1B:66:AC:33:07";
    private static final String PAIRED_AWAY = "F0:99:B6:12:34:56";

    @TempDir
    static Path busDir;

    @TempDir
    Path dir;

    private static DbusMock bus;

    @BeforeAll
    static void services() throws Exception {
        bus = DbusMock.start(busDir);
        bus.template("bluez5", "org.bluez", "{}");
        bus.python("m = bus.get_object('org.bluez', '/org/bluez')\n"
                + "m.AddAdapter('hci0', 'reporter-laptop', dbus_interface='org.bluez.Mock')\n"
                + "m.AddDevice('hci0', '" + PIXEL + "', 'Pixel 7', dbus_interface='org.bluez.Mock')\n"
                + "h = bus.get_object('org.bluez', m.AddDevice('hci0', '" + HEADSET + "', 'WH-1000XM4', dbus_interface='org.bluez.Mock'))\n"
                + "h.Set('org.bluez.Device1', 'RSSI', dbus.Int16(-48), dbus_interface=dbus.PROPERTIES_IFACE)\n"
                + "h.Set('org.bluez.Device1', 'Class', dbus.UInt32(0x240404), dbus_interface=dbus.PROPERTIES_IFACE)\n"
                + "h.Set('org.bluez.Device1', 'Connected', dbus.Boolean(True), dbus_interface=dbus.PROPERTIES_IFACE)\n"
                // a paired device BlueZ remembers but has not seen: in BlueZ it has no RSSI property at all
                + "m.AddObject('/org/bluez/hci0/dev_F0_99_B6_12_34_56', 'org.bluez.Device1', {'Address': dbus.String('" + PAIRED_AWAY
                + "'), 'Name': dbus.String('Alice AirPods'), 'Paired': dbus.Boolean(True), 'Connected': dbus.Boolean(False)}, [],"
                + " dbus_interface=dbusmock.MOCK_IFACE)\n");
        bus.template("ofono", "org.ofono", "{}");
        bus.objectManager("org.freedesktop.ModemManager1", "/org/freedesktop/ModemManager1", "org.freedesktop.ModemManager1");
        bus.python("m = bus.get_object('org.freedesktop.ModemManager1', '/org/freedesktop/ModemManager1')\n"
                + "cells = \"[dbus.Dictionary({'cell-type': dbus.UInt32(5), 'serving': dbus.Boolean(True), 'operator-id': '26201',"
                + " 'tac': '3A2C', 'ci': '01A2B3C4', 'physical-ci': '1F', 'earfcn': dbus.UInt32(1300), 'rsrp': dbus.Double(-95.5)},"
                + " signature='sv'), dbus.Dictionary({'cell-type': dbus.UInt32(5), 'serving': dbus.Boolean(False), 'physical-ci': '2A',"
                + " 'rsrp': dbus.Double(-110.0)}, signature='sv')]\"\n"
                + "m.AddObject('/org/freedesktop/ModemManager1/Modem/0', 'org.freedesktop.ModemManager1.Modem',"
                + " {'Manufacturer': dbus.String('Quectel'), 'Model': dbus.String('EM05-G')},"
                + " [('GetCellInfo', '', 'aa{sv}', 'ret = ' + cells)], dbus_interface=dbusmock.MOCK_IFACE)\n");
    }

    @AfterAll
    static void stop() {
        if (bus != null) {
            bus.close();
        }
    }

    private ProofModeJar proofmode() {
        return ProofModeJar.at(dir.resolve("home")).withEnv("DBUS_SYSTEM_BUS_ADDRESS", bus.address());
    }

    @Test
    void prove_recordsNearbyBluetoothDevicesHashed_withRadiosOn() throws Exception {
        ProofModeJar pm = proofmode();
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 41);

        ProcessResult r = pm.run("prove", "--radios", "--j3m", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        IdentifierHasher ids = new IdentifierHasher(pm.home());
        assertThat(proof.path("Warning.Bluetooth").isMissingNode()).as(proof.toString()).isTrue();
        assertThat(proof.get("Bluetooth.Adapter.Count").asText()).isEqualTo("1");
        assertThat(proof.get("Bluetooth.Adapter.1.Address").asText()).matches("hmac-sha256:[0-9a-f]{64}");
        assertThat(proof.get("Bluetooth.Adapter.1.Powered").asText()).isEqualTo("true");
        // nearest first; the paired device that was not seen is left out
        assertThat(proof.get("Bluetooth.Device.Count").asText()).isEqualTo("2");
        assertThat(proof.get("Bluetooth.Device.1.Address").asText()).isEqualTo(ids.hash(IdentifierHasher.Kind.MAC, HEADSET));
        assertThat(proof.get("Bluetooth.Device.1.Name").asText()).isEqualTo("WH-1000XM4");
        assertThat(proof.get("Bluetooth.Device.1.Class").asText()).isEqualTo("0x240404");
        assertThat(proof.get("Bluetooth.Device.1.RSSI").asText()).isEqualTo("-48");
        assertThat(proof.get("Bluetooth.Device.1.Connected").asText()).isEqualTo("true");
        assertThat(proof.get("Bluetooth.Device.2.Address").asText()).isEqualTo(ids.hash(IdentifierHasher.Kind.MAC, PIXEL));
        assertThat(proof.get("Bluetooth.Device.2.Name").asText()).isEqualTo("Pixel 7");
        assertThat(proof.get("Bluetooth.Device.2.RSSI").asText()).isEqualTo("-79");
        assertThat(proof.toString()).doesNotContain("Alice AirPods");
        assertNoAddressInTheClear(pm.proofFolder(h));
        // J3M: one capture per device, as CameraV logged them, the address hashed there too
        JsonNode j3m = JSON.readTree(pm.proofFolder(h).resolve(h + ".j3m.json").toFile());
        assertThat(j3m.at("/data/sensorCapture/1/sensorPlayback/bluetoothDeviceAddress").asText())
                .isEqualTo(ids.hash(IdentifierHasher.Kind.MAC, HEADSET));
        assertThat(j3m.at("/data/sensorCapture/2/sensorPlayback/bluetoothDeviceName").asText()).isEqualTo("Pixel 7");

        ProcessResult inspect = pm.run("inspect", "--radios", photo.toString());
        assertThat(inspect.stdout()).as(inspect.describe()).contains("Bluetooth.Device.1.Name").contains("hmac-sha256:");
        assertThat(inspect.stdout().toUpperCase(Locale.ROOT)).doesNotContain(PIXEL, HEADSET, PAIRED_AWAY);
    }

    @Test
    void prove_recordsNoRadioOrCell_withDefaultSettings() throws Exception {
        ProofModeJar pm = proofmode();
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 42);

        ProcessResult r = pm.run("prove", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        proof.fieldNames().forEachRemaining(n -> assertThat(n).doesNotStartWith("Bluetooth.").doesNotStartWith("Cell."));
    }

    @Test
    void prove_recordsServingAndNeighbourCells_fromModemManagerAndOfono_withLocationOn() throws Exception {
        ProofModeJar pm = proofmode();
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 43);

        ProcessResult r = pm.run("prove", "--location=48.1173,11.5167", "--j3m", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        assertThat(proof.path("Warning.Cell").isMissingNode()).as(proof.toString()).isTrue();
        assertThat(proof.get("Cell.Count").asText()).isEqualTo("3");
        // ModemManager: the serving LTE cell, its ids from hex to decimal, and a neighbour known by its physical id
        assertThat(proof.get("Cell.1.Modem").asText()).isEqualTo("ModemManager");
        assertThat(proof.get("Cell.1.Serving").asText()).isEqualTo("true");
        assertThat(proof.get("Cell.1.Technology").asText()).isEqualTo("lte");
        assertThat(proof.get("Cell.1.MCC").asText()).isEqualTo("262");
        assertThat(proof.get("Cell.1.MNC").asText()).isEqualTo("01");
        assertThat(proof.get("Cell.1.TAC").asText()).isEqualTo(Long.toString(0x3A2C));
        assertThat(proof.get("Cell.1.CellId").asText()).isEqualTo(Long.toString(0x01A2B3C4));
        assertThat(proof.get("Cell.1.Signal").asText()).isEqualTo("-95.5 dBm (rsrp)");
        assertThat(proof.get("Cell.2.Serving").asText()).isEqualTo("false");
        assertThat(proof.get("Cell.2.PhysicalCellId").asText()).isEqualTo("42");
        assertThat(proof.has("Cell.2.CellId")).isFalse();
        // oFono: the template's registered GSM modem
        assertThat(proof.get("Cell.3.Modem").asText()).isEqualTo("oFono");
        assertThat(proof.get("Cell.3.Technology").asText()).isEqualTo("gsm");
        assertThat(proof.get("Cell.3.MCC").asText()).isEqualTo("777");
        assertThat(proof.get("Cell.3.MNC").asText()).isEqualTo("11");
        assertThat(proof.get("Cell.3.LAC").asText()).isEqualTo("987");
        assertThat(proof.get("Cell.3.CellId").asText()).isEqualTo("10203");
        assertThat(proof.get("Cell.3.Signal").asText()).isEqualTo("80 %");
        // J3M: the serving cell in CameraV's keys
        JsonNode playback = JSON.readTree(pm.proofFolder(h).resolve(h + ".j3m.json").toFile()).at("/data/sensorCapture/0/sensorPlayback");
        assertThat(playback.get("cellTowerId").asLong()).isEqualTo(0x01A2B3C4L);
        assertThat(playback.get("LAC").asLong()).isEqualTo(0x3A2CL);
        assertThat(playback.get("MCC").asText()).isEqualTo("262");
        assertThat(playback.get("MNC").asText()).isEqualTo("01");
    }

    /** No Bluetooth address, in any spelling, in any file of the proof. */
    private static void assertNoAddressInTheClear(Path folder) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(folder)) {
            s.forEach(files::add);
        }
        for (Path f : files) {
            String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            for (String mac : List.of(PIXEL, HEADSET, PAIRED_AWAY)) {
                String m = mac.toLowerCase(Locale.ROOT);
                assertThat(text).as(f.getFileName() + " holds " + mac).doesNotContain(m).doesNotContain(m.replace(":", ""))
                        .doesNotContain(m.replace(":", "-")).doesNotContain(m.replace(":", "_"));
            }
        }
    }
}
