// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * Bluetooth ({@code Bluetooth.*}) as BlueZ knows it over the system bus: the adapters (hashed address,
 * powered, discovering) and the devices seen nearby (hashed address, name, class, signal strength,
 * connected, paired), nearest first. A device counts as seen when BlueZ has a signal strength for it (it
 * answered the last discovery) or it is connected; paired devices out of range are left out, since they
 * tell whose device this is, not what was around. No scan is started: BlueZ lists what its last discovery
 * (a desktop's Bluetooth panel, {@code bluetoothctl scan on}) found.
 *
 * <p>Opt-in (setting {@code radios}). Security: addresses are stored only as keyed hashes
 * ({@link IdentifierHasher}, kind {@code MAC}, as Wi-Fi BSSIDs are); adapter names, which are usually the
 * host name, are not recorded. When BlueZ is not running the proof says so in {@code Warning.Bluetooth}.
 * A reading is reused for 10 seconds ({@link Reused}).
 */
public final class BluetoothSource implements MetadataSource {
    static final String BLUEZ = "org.bluez";
    static final int MAX_DEVICES = 32;

    private final SystemBus bus;
    private final IdentifierHasher ids;
    private final Reused reused = new Reused();

    /**
     * Asks this machine's BlueZ.
     *
     * @param ids hashes the addresses
     */
    public BluetoothSource(IdentifierHasher ids) {
        this(SystemBus.system(), ids);
    }

    BluetoothSource(SystemBus bus, IdentifierHasher ids) {
        this.bus = Objects.requireNonNull(bus, "bus");
        this.ids = Objects.requireNonNull(ids, "ids");
        reused.start(this::read);
    }

    @Override
    public String name() {
        return "Bluetooth";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        reused.get(this::read).addTo(record, name());
    }

    private Reused.Reading read() {
        Map<String, String> f = new LinkedHashMap<>();
        Optional<String> problem = Optional.empty();
        try {
            Map<String, Map<String, Map<String, Object>>> objects = bus.read(SystemBus.TIMEOUT,
                    c -> c.running(BLUEZ) ? c.managedObjects(BLUEZ, "/") : null);
            if (objects == null) {
                problem = Optional.of("BlueZ (org.bluez) is not running on the system bus");
            } else {
                fields(objects, f);
            }
        } catch (Exception e) {
            f.clear();
            problem = Optional.of("BlueZ could not be asked: " + SystemBus.why(e));
        }
        return new Reused.Reading(f, problem);
    }

    private void fields(Map<String, Map<String, Map<String, Object>>> objects, Map<String, String> f) {
        int adapters = 0;
        List<Map<String, Object>> devices = new ArrayList<>();
        for (Map<String, Map<String, Object>> ifaces : objects.values()) {
            Map<String, Object> a = ifaces.get("org.bluez.Adapter1");
            if (a != null && a.get("Address") instanceof String address) {
                adapters++;
                String p = ContextFields.BLUETOOTH_ADAPTER + adapters + ".";
                f.put(p + "Address", ids.hash(IdentifierHasher.Kind.MAC, address));
                flag(a, "Powered", p, f);
                flag(a, "Discovering", p, f);
            }
            Map<String, Object> d = ifaces.get("org.bluez.Device1");
            if (d != null && d.get("Address") instanceof String
                    && (d.get("RSSI") instanceof Long || Boolean.TRUE.equals(d.get("Connected")))) {
                devices.add(d);
            }
        }
        f.put(ContextFields.BLUETOOTH_ADAPTER_COUNT, Integer.toString(adapters));
        devices.sort((x, y) -> Long.compare(rssi(y), rssi(x)));
        int n = 0;
        for (Map<String, Object> d : devices) {
            if (n == MAX_DEVICES) {
                break;
            }
            n++;
            String p = ContextFields.BLUETOOTH_DEVICE + n + ".";
            f.put(p + "Address", ids.hash(IdentifierHasher.Kind.MAC, (String) d.get("Address")));
            if (d.get("Name") instanceof String name && !name.isBlank()) {
                f.put(p + "Name", name.length() > 248 ? name.substring(0, 248) : name);
            }
            if (d.get("Class") instanceof Long cls) {
                f.put(p + "Class", String.format("0x%06x", cls & 0xffffff));
            }
            if (d.get("RSSI") instanceof Long rssi) {
                f.put(p + "RSSI", rssi.toString());
            }
            flag(d, "Connected", p, f);
            flag(d, "Paired", p, f);
        }
        f.put(ContextFields.BLUETOOTH_DEVICE_COUNT, Integer.toString(n));
    }

    private static long rssi(Map<String, Object> d) {
        return d.get("RSSI") instanceof Long r ? r : Long.MIN_VALUE;
    }

    private static void flag(Map<String, Object> props, String name, String prefix, Map<String, String> f) {
        if (props.get(name) instanceof Boolean b) {
            f.put(prefix + name, b.toString());
        }
    }
}
