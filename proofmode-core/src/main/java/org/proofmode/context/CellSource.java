// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.Position;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The mobile network cells in reach ({@code Cell.*}), from the modem daemon on the system bus:
 * ModemManager ({@code Modem.GetCellInfo}, 1.20 and later: the serving cell and its neighbours; before 1.20,
 * the serving cell's ids from {@code Modem.Location.GetLocation}'s 3GPP source, where the modem's location
 * gathering is on) and oFono ({@code NetworkRegistration}: the serving cell; {@code NetworkMonitor}'s
 * {@code GetNeighbouringCellInformation}, where the modem's driver has it: the neighbours). Each cell with
 * its technology, MCC, MNC, LAC or TAC and cell id in decimal (as OpenCelliD and the operators' own
 * registers list them), and its signal in dBm where the daemon gives one; a neighbour known only by its
 * physical cell id (LTE, 5G) or primary scrambling code (UMTS) is recorded with that.
 *
 * <p>Part of the {@code location} opt-in: a cell id places the device within a few hundred metres to a few
 * kilometres. Cell ids are recorded in the clear on purpose: an outside source can only confirm a cell that
 * it can read (OpenCelliD and similar databases give each MCC/MNC/LAC/CI's position; the operator can
 * confirm it served the device), and a keyed hash would hide it from them too, while a plain hash hides
 * nothing (the ids of one operator are few enough to try them all). Neither daemon running is not a
 * problem (most desktops have no modem); a daemon that answers garbage or late adds {@code Warning.Cell}.
 * A reading is reused for 10 seconds ({@link Reused}).
 */
public final class CellSource implements MetadataSource {
    static final String MODEM_MANAGER = "org.freedesktop.ModemManager1";
    static final String OFONO = "org.ofono";
    static final int MAX_CELLS = 16;

    /** ModemManager's modem, for its cell list. */
    @DBusInterfaceName("org.freedesktop.ModemManager1.Modem")
    public interface MmModem extends DBusInterface {
        /** The serving and neighbour cells, one dictionary each. */
        List<Map<String, Variant<?>>> GetCellInfo();
    }

    /** ModemManager's location interface (before 1.20, the only way to the serving cell's ids). */
    @DBusInterfaceName("org.freedesktop.ModemManager1.Modem.Location")
    public interface MmLocation extends DBusInterface {
        /** The locations the enabled sources have, by source bit. */
        Map<UInt32, Variant<?>> GetLocation();
    }

    /** oFono's network monitor: measurements of the neighbouring cells. */
    @DBusInterfaceName("org.ofono.NetworkMonitor")
    public interface OfonoMonitor extends DBusInterface {
        /** One dictionary per neighbour, each in a struct: {@code a(a{sv})}. */
        List<OfonoCellInfo> GetNeighbouringCellInformation();
    }

    /** One entry of {@code GetNeighbouringCellInformation}: {@code (a{sv})}. */
    public static final class OfonoCellInfo extends Struct {
        @Position(0)
        private final Map<String, Variant<?>> properties;

        /**
         * An entry as D-Bus delivers it.
         *
         * @param properties the cell's measurements
         */
        public OfonoCellInfo(Map<String, Variant<?>> properties) {
            this.properties = properties;
        }

        /** The cell's measurements. */
        public Map<String, Variant<?>> getProperties() {
            return properties;
        }
    }

    /** oFono's manager, for its modems. */
    @DBusInterfaceName("org.ofono.Manager")
    public interface OfonoManager extends DBusInterface {
        /** The modems with their properties. */
        List<OfonoModem> GetModems();
    }

    /** oFono's network registration: the serving cell. */
    @DBusInterfaceName("org.ofono.NetworkRegistration")
    public interface OfonoRegistration extends DBusInterface {
        /** The registration's properties. */
        Map<String, Variant<?>> GetProperties();
    }

    /** One entry of {@code GetModems}: {@code (oa{sv})}. */
    public static final class OfonoModem extends Struct {
        @Position(0)
        private final DBusPath path;
        @Position(1)
        private final Map<String, Variant<?>> properties;

        /**
         * An entry as D-Bus delivers it.
         *
         * @param path the modem's object path
         * @param properties its properties
         */
        public OfonoModem(DBusPath path, Map<String, Variant<?>> properties) {
            this.path = path;
            this.properties = properties;
        }

        /** The modem's object path. */
        public DBusPath getPath() {
            return path;
        }

        /** Its properties. */
        public Map<String, Variant<?>> getProperties() {
            return properties;
        }
    }

    private final SystemBus bus;
    private final Reused reused = new Reused();

    /** Asks this machine's modem daemons. */
    public CellSource() {
        this(SystemBus.system());
    }

    CellSource(SystemBus bus) {
        this.bus = Objects.requireNonNull(bus, "bus");
        reused.start(this::read);
    }

    @Override
    public String name() {
        return "Cell";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        reused.get(this::read).addTo(record, name());
    }

    private Reused.Reading read() {
        List<Map<String, String>> cells = new ArrayList<>();
        Optional<String> problem = Optional.empty();
        try {
            bus.read(SystemBus.TIMEOUT, c -> {
                if (c.running(MODEM_MANAGER)) {
                    modemManager(c, cells);
                }
                if (c.running(OFONO)) {
                    ofono(c, cells);
                }
                return null;
            });
        } catch (SystemBus.Absent e) {
            return new Reused.Reading(Map.of(), Optional.empty());
        } catch (Exception e) {
            cells.clear();
            problem = Optional.of("the modem daemon could not be asked: " + SystemBus.why(e));
        }
        Map<String, String> f = new LinkedHashMap<>();
        int n = 0;
        for (Map<String, String> cell : cells) {
            if (n == MAX_CELLS) {
                break;
            }
            n++;
            String p = ContextFields.CELL + n + ".";
            cell.forEach((k, v) -> f.put(p + k, v));
        }
        if (n > 0) {
            f.put(ContextFields.CELL_COUNT, Integer.toString(n));
        }
        return new Reused.Reading(f, problem);
    }

    private static void modemManager(SystemBus.Connection c, List<Map<String, String>> cells) throws Exception {
        for (Map.Entry<String, Map<String, Map<String, Object>>> o
                : c.managedObjects(MODEM_MANAGER, "/org/freedesktop/ModemManager1").entrySet()) {
            if (!o.getValue().containsKey(MODEM_MANAGER + ".Modem")) {
                continue;
            }
            List<Map<String, Variant<?>>> infos;
            try {
                infos = c.remote(MODEM_MANAGER, o.getKey(), MmModem.class).GetCellInfo();
            } catch (DBusExecutionException e) {
                // before 1.20 there is no such method, and a modem may not support it: the serving cell from
                // the location interface, where the modem has one
                if (!o.getValue().containsKey(MODEM_MANAGER + ".Modem.Location")) {
                    throw e;
                }
                Map<Long, Object> location = new LinkedHashMap<>();
                c.remote(MODEM_MANAGER, o.getKey(), MmLocation.class).GetLocation()
                        .forEach((k, x) -> location.put(k.longValue(), SystemBus.plain(x)));
                mmLocationCell(location, o.getValue().get(MODEM_MANAGER + ".Modem").get("AccessTechnologies")).ifPresent(cells::add);
                continue;
            }
            for (Map<String, Variant<?>> info : infos) {
                Map<String, Object> v = new LinkedHashMap<>();
                info.forEach((k, x) -> v.put(k, SystemBus.plain(x)));
                mmCell(v).ifPresent(cells::add);
            }
        }
    }

    /**
     * The serving cell from {@code GetLocation}'s 3GPP source (bit 1): {@code "MCC,MNC,LAC,CI"} and, since
     * 1.10, {@code ",TAC"}, the ids in hexadecimal; the technology from the modem's
     * {@code AccessTechnologies} bits (LTE and 5G have a TAC, the others a LAC).
     */
    static Optional<Map<String, String>> mmLocationCell(Map<Long, Object> location, Object accessTechnologies) {
        if (!(location.get(1L) instanceof String ids)) {
            return Optional.empty();
        }
        String[] p = ids.split(",", -1);
        if (p.length < 4 || !p[0].matches("\\d{3}") || !p[1].matches("\\d{2,3}")) {
            return Optional.empty();
        }
        Optional<String> ci = hex(p[3]).filter(x -> !x.equals("0"));
        if (ci.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> cell = new LinkedHashMap<>();
        cell.put("Serving", "true");
        long bits = accessTechnologies instanceof Long b ? b : 0;
        String tech = (bits & (1L << 15)) != 0 ? "5gnr" : (bits & (7L << 14)) != 0 ? "lte"
                : (bits & (0x1fL << 5)) != 0 ? "umts" : (bits & (0xfL << 1)) != 0 ? "gsm" : "unknown";
        cell.put("Technology", tech);
        cell.put("MCC", p[0]);
        cell.put("MNC", p[1]);
        hex(p[2]).filter(x -> !x.equals("0")).ifPresent(x -> cell.put("LAC", x));
        if (p.length > 4) {
            hex(p[4]).filter(x -> !x.equals("0")).ifPresent(x -> cell.put("TAC", x));
        }
        cell.put("CellId", ci.get());
        cell.put("Modem", "ModemManager");
        return Optional.of(cell);
    }

    /** One of {@code GetCellInfo}'s dictionaries; ids are hex strings there. */
    static Optional<Map<String, String>> mmCell(Map<String, Object> v) {
        Map<String, String> cell = new LinkedHashMap<>();
        cell.put("Serving", Boolean.toString(Boolean.TRUE.equals(v.get("serving"))));
        if (v.get("cell-type") instanceof Long t) {
            cell.put("Technology", switch (t.intValue()) {
                case 1 -> "cdma";
                case 2 -> "gsm";
                case 3 -> "umts";
                case 4 -> "tdscdma";
                case 5 -> "lte";
                case 6 -> "5gnr";
                default -> "unknown";
            });
        }
        if (v.get("operator-id") instanceof String op && op.matches("\\d{5,6}")) {
            cell.put("MCC", op.substring(0, 3));
            cell.put("MNC", op.substring(3));
        }
        hex(v.get("lac")).ifPresent(x -> cell.put("LAC", x));
        hex(v.get("tac")).ifPresent(x -> cell.put("TAC", x));
        hex(v.get("ci")).ifPresent(x -> cell.put("CellId", x));
        hex(v.get("physical-ci")).ifPresent(x -> cell.put("PhysicalCellId", x));
        for (String s : new String[] {"rsrp", "rscp", "rssi", "rxlev"}) {
            if (v.get(s) instanceof Double d && Double.isFinite(d)) {
                cell.put("Signal", SysfsSensors.number(d) + (s.equals("rxlev") ? " (rxlev)" : " dBm (" + s + ")"));
                break;
            }
        }
        cell.put("Modem", "ModemManager");
        return cell.containsKey("CellId") || cell.containsKey("PhysicalCellId") ? Optional.of(cell) : Optional.empty();
    }

    private static Optional<String> hex(Object o) {
        if (o instanceof String s && s.matches("[0-9A-Fa-f]{1,16}")) {
            return Optional.of(Long.toString(Long.parseLong(s, 16)));
        }
        return Optional.empty();
    }

    private static void ofono(SystemBus.Connection c, List<Map<String, String>> cells) throws Exception {
        for (OfonoModem m : c.remote(OFONO, "/", OfonoManager.class).GetModems()) {
            Object ifaces = SystemBus.plain(m.getProperties().get("Interfaces"));
            if (!(ifaces instanceof List<?> l) || !l.contains("org.ofono.NetworkRegistration")) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            c.remote(OFONO, m.getPath().getPath(), OfonoRegistration.class).GetProperties().forEach((k, x) -> v.put(k, SystemBus.plain(x)));
            ofonoCell(v).ifPresent(cells::add);
            if (l.contains("org.ofono.NetworkMonitor")) {
                for (Map<String, Object> n : ofonoNeighbours(c, m.getPath().getPath())) {
                    ofonoNeighbour(n).ifPresent(cells::add);
                }
            }
        }
    }

    /**
     * The neighbours oFono's monitor measured. An error answer means none known: a driver without the method
     * answers {@code NotImplemented}, a modem busy measuring {@code InProgress}; and oFono answers an empty
     * list as {@code a{sv}} instead of {@code a(a{sv})}.
     */
    private static List<Map<String, Object>> ofonoNeighbours(SystemBus.Connection c, String modem) throws Exception {
        List<Map<String, Object>> out = new ArrayList<>();
        try {
            for (OfonoCellInfo info : c.remote(OFONO, modem, OfonoMonitor.class).GetNeighbouringCellInformation()) {
                Map<String, Object> v = new LinkedHashMap<>();
                info.getProperties().forEach((k, x) -> v.put(k, SystemBus.plain(x)));
                out.add(v);
            }
        } catch (DBusExecutionException | ClassCastException e) {
            // the binding hands the empty a{sv} over as a map where the declared list is
            return List.of();
        }
        return out;
    }

    /**
     * A neighbour from oFono's monitor: ids as numbers; signals as 27.007 indices, turned into dBm at the
     * bottom of each index's range (RSRP {@code -140 + i}, RSCP {@code -120 + i}, RxLev {@code -110 + i},
     * RSSI {@code -113 + 2i}).
     */
    static Optional<Map<String, String>> ofonoNeighbour(Map<String, Object> v) {
        Map<String, String> cell = ofonoNetwork(v, false);
        if (v.get("LocationAreaCode") instanceof Long lac) {
            cell.put("LAC", lac.toString());
        }
        if (v.get("TrackingAreaCode") instanceof Long tac) {
            cell.put("TAC", tac.toString());
        }
        if (v.get("CellId") instanceof Long ci) {
            cell.put("CellId", ci.toString());
        }
        if (v.get("PhysicalCellId") instanceof Long pci) {
            cell.put("PhysicalCellId", pci.toString());
        }
        if (v.get("PrimaryScramblingCode") instanceof Long psc) {
            cell.put("PrimaryScramblingCode", psc.toString());
        }
        signal(v, "ReferenceSignalReceivedPower", 97, -140, 1, "rsrp")
                .or(() -> signal(v, "ReceivedSignalCodePower", 96, -120, 1, "rscp"))
                .or(() -> signal(v, "ReceivedSignalStrength", 63, -110, 1, "rxlev"))
                .or(() -> signal(v, "Strength", 31, -113, 2, "rssi"))
                .ifPresent(x -> cell.put("Signal", x));
        cell.put("Modem", "oFono");
        return cell.containsKey("CellId") || cell.containsKey("PhysicalCellId") || cell.containsKey("PrimaryScramblingCode")
                ? Optional.of(cell) : Optional.empty();
    }

    /** A cell's first fields from oFono's names, the same in its registration and its monitor. */
    private static Map<String, String> ofonoNetwork(Map<String, Object> v, boolean serving) {
        Map<String, String> cell = new LinkedHashMap<>();
        cell.put("Serving", Boolean.toString(serving));
        cell.put("Technology", v.get("Technology") instanceof String t && t.matches("[a-z]{1,16}") ? t : "unknown");
        if (v.get("MobileCountryCode") instanceof String mcc && mcc.matches("\\d{3}")) {
            cell.put("MCC", mcc);
        }
        if (v.get("MobileNetworkCode") instanceof String mnc && mnc.matches("\\d{2,3}")) {
            cell.put("MNC", mnc);
        }
        return cell;
    }

    private static Optional<String> signal(Map<String, Object> v, String key, long max, int base, int step, String what) {
        if (v.get(key) instanceof Long i && i >= 0 && i <= max) {
            return Optional.of((base + step * i) + " dBm (" + what + ")");
        }
        return Optional.empty();
    }

    /** oFono's registration: numbers in decimal; on LTE, {@code LocationAreaCode} holds the TAC. */
    static Optional<Map<String, String>> ofonoCell(Map<String, Object> v) {
        if (!(v.get("CellId") instanceof Long ci) || !(v.get("Status") instanceof String status)
                || !(status.equals("registered") || status.equals("roaming"))) {
            return Optional.empty();
        }
        Map<String, String> cell = ofonoNetwork(v, true);
        if (v.get("LocationAreaCode") instanceof Long area) {
            cell.put(cell.get("Technology").equals("lte") ? "TAC" : "LAC", area.toString());
        }
        cell.put("CellId", ci.toString());
        if (v.get("Strength") instanceof Long s && s >= 0 && s <= 100) {
            cell.put("Signal", s + " %");
        }
        cell.put("Modem", "oFono");
        return Optional.of(cell);
    }
}
