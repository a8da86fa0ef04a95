// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.DbusMock;
import org.proofmode.testkit.ProcessResult;

/**
 * The cells the modem daemons give in their other ways, over the real D-Bus protocol on a private bus: a
 * ModemManager older than 1.20 (no {@code Modem.GetCellInfo}, so the serving cell comes from
 * {@code Modem.Location.GetLocation}'s 3GPP source), and oFono's {@code NetworkMonitor} with neighbouring
 * cells on one modem and, on another, the empty answer oFono sends with the wrong signature
 * ({@code a{sv}} for {@code a(a{sv})}), which means no neighbours known, not a fault.
 */
class CellFallbacksIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path busDir;

    @TempDir
    Path dir;

    private static DbusMock bus;

    @BeforeAll
    static void services() throws Exception {
        bus = DbusMock.start(busDir);
        bus.objectManager("org.freedesktop.ModemManager1", "/org/freedesktop/ModemManager1", "org.freedesktop.ModemManager1");
        bus.python("m = bus.get_object('org.freedesktop.ModemManager1', '/org/freedesktop/ModemManager1')\n"
                // ModemManager 1.18: an LTE modem with 3GPP location gathering on; no GetCellInfo method at all
                + "p = '/org/freedesktop/ModemManager1/Modem/3'\n"
                + "m.AddObject(p, 'org.freedesktop.ModemManager1.Modem', {'Manufacturer': dbus.String('Sierra Wireless'),"
                + " 'AccessTechnologies': dbus.UInt32(1 << 14)}, [], dbus_interface=dbusmock.MOCK_IFACE)\n"
                + "o = bus.get_object('org.freedesktop.ModemManager1', p)\n"
                + "o.AddProperties('org.freedesktop.ModemManager1.Modem.Location', {'Enabled': dbus.UInt32(1),"
                + " 'Capabilities': dbus.UInt32(3)}, dbus_interface=dbusmock.MOCK_IFACE)\n"
                + "o.AddMethod('org.freedesktop.ModemManager1.Modem.Location', 'GetLocation', '', 'a{uv}',"
                + " \"ret = dbus.Dictionary({dbus.UInt32(1): dbus.String('262,01,3A2C,01A2B3C4,3A2D', variant_level=1)}, signature='uv')\","
                + " dbus_interface=dbusmock.MOCK_IFACE)\n");
        bus.template("ofono", "org.ofono", "{}");
        bus.python("m = bus.get_object('org.ofono', '/')\n"
                + "second = m.AddModem('ril_1', {}, dbus_interface=dbusmock.MOCK_IFACE)\n"
                + "ifaces = ['org.ofono.NetworkRegistration', 'org.ofono.NetworkMonitor']\n"
                + "neighbours = \"[dbus.Struct((dbus.Dictionary({'Technology': 'gsm', 'MobileCountryCode': '777', 'MobileNetworkCode': '11',"
                + " 'LocationAreaCode': dbus.UInt16(987), 'CellId': dbus.UInt32(10311), 'ReceivedSignalStrength': dbus.Byte(25)}, signature='sv'),),"
                + " signature=None), dbus.Struct((dbus.Dictionary({'Technology': 'umts', 'PrimaryScramblingCode': dbus.UInt16(301),"
                + " 'ReceivedSignalCodePower': dbus.Byte(30)}, signature='sv'),), signature=None),"
                + " dbus.Struct((dbus.Dictionary({'Technology': 'lte', 'EARFCN': dbus.UInt16(1300)}, signature='sv'),), signature=None)]\"\n"
                + "for path, answer, sig in (('/ril_0', 'ret = ' + neighbours, 'a(a{sv})'),"
                + " (second, \"ret = dbus.Dictionary({}, signature='sv')\", 'a{sv}')):\n"
                + "    o = bus.get_object('org.ofono', path)\n"
                + "    o.Set('org.ofono.Modem', 'Interfaces', dbus.Array(ifaces, signature='s'), dbus_interface=dbus.PROPERTIES_IFACE)\n"
                + "    o.AddMethod('org.ofono.NetworkMonitor', 'GetNeighbouringCellInformation', '', sig, answer,"
                + " dbus_interface=dbusmock.MOCK_IFACE)\n");
    }

    @AfterAll
    static void stop() {
        if (bus != null) {
            bus.close();
        }
    }

    @Test
    void prove_recordsTheServingCellOfAnOldModemManager_andOfonosNeighbours() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("DBUS_SYSTEM_BUS_ADDRESS", bus.address());
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 47);

        ProcessResult r = pm.run("prove", "--location=48.1173,11.5167", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        assertThat(proof.path("Warning.Cell").isMissingNode()).as(proof.toString()).isTrue();
        // ModemManager 1.18: MCC, MNC, LAC, CI, TAC from the location string, hex to decimal; LTE from its access bits
        assertThat(proof.get("Cell.1.Modem").asText()).as(proof.toString()).isEqualTo("ModemManager");
        assertThat(proof.get("Cell.1.Serving").asText()).isEqualTo("true");
        assertThat(proof.get("Cell.1.Technology").asText()).isEqualTo("lte");
        assertThat(proof.get("Cell.1.MCC").asText()).isEqualTo("262");
        assertThat(proof.get("Cell.1.MNC").asText()).isEqualTo("01");
        assertThat(proof.get("Cell.1.LAC").asText()).isEqualTo(Long.toString(0x3A2C));
        assertThat(proof.get("Cell.1.TAC").asText()).isEqualTo(Long.toString(0x3A2D));
        assertThat(proof.get("Cell.1.CellId").asText()).isEqualTo(Long.toString(0x01A2B3C4));
        // oFono: the first modem's serving cell, then its neighbours; the LTE one with no id is left out
        assertThat(proof.get("Cell.2.Modem").asText()).isEqualTo("oFono");
        assertThat(proof.get("Cell.2.Serving").asText()).isEqualTo("true");
        assertThat(proof.get("Cell.3.Serving").asText()).isEqualTo("false");
        assertThat(proof.get("Cell.3.Technology").asText()).isEqualTo("gsm");
        assertThat(proof.get("Cell.3.MCC").asText()).isEqualTo("777");
        assertThat(proof.get("Cell.3.LAC").asText()).isEqualTo("987");
        assertThat(proof.get("Cell.3.CellId").asText()).isEqualTo("10311");
        assertThat(proof.get("Cell.3.Signal").asText()).isEqualTo("-85 dBm (rxlev)");
        assertThat(proof.get("Cell.4.Technology").asText()).isEqualTo("umts");
        assertThat(proof.get("Cell.4.PrimaryScramblingCode").asText()).isEqualTo("301");
        assertThat(proof.get("Cell.4.Signal").asText()).isEqualTo("-90 dBm (rscp)");
        assertThat(proof.has("Cell.4.CellId")).isFalse();
        // the second modem: its serving cell, and its empty neighbour list read as none
        assertThat(proof.get("Cell.5.Modem").asText()).isEqualTo("oFono");
        assertThat(proof.get("Cell.5.Serving").asText()).isEqualTo("true");
        assertThat(proof.get("Cell.Count").asText()).isEqualTo("5");
    }
}
