// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * Motion and environment sensors ({@code Sensors.*}): from iio-sensor-proxy over the system bus (what GNOME
 * and KDE use on laptops and tablets: orientation, ambient light, proximity, and the compass where its
 * policy lets us read it), and from the kernel's IIO and hwmon trees in {@code /sys} for what the proxy
 * does not give (acceleration, magnetic field, pressure, humidity, temperatures; {@link SysfsSensors}).
 * Each reading carries its unit; {@code Sensors.Time} says when they were read.
 *
 * <p>On by default (setting {@code sensors}): these readings describe how the device was held and lit, not
 * where it was; the one that can tell a place, barometric pressure (an altimeter), is recorded only when
 * location is on too. A device with no sensors records {@code Sensors.Source: none}; a proxy that answers
 * garbage or late adds {@code Warning.Sensors}. A reading is reused for 10 seconds ({@link Reused}), so
 * proving a folder asks once.
 */
public final class SensorSource implements MetadataSource {
    static final String PROXY = "net.hadess.SensorProxy";
    static final String PROXY_PATH = "/net/hadess/SensorProxy";
    /** How long a fresh claim is given to bring a first reading. */
    static final Duration SETTLE = Duration.ofMillis(300);
    static final Duration SYSFS_TIMEOUT = Duration.ofMillis(500);

    /** iio-sensor-proxy's methods. */
    @DBusInterfaceName("net.hadess.SensorProxy")
    public interface Proxy extends DBusInterface {
        /** Starts the accelerometer for this client. */
        void ClaimAccelerometer();

        /** Stops it. */
        void ReleaseAccelerometer();

        /** Starts the light sensor. */
        void ClaimLight();

        /** Stops it. */
        void ReleaseLight();

        /** Starts the proximity sensor. */
        void ClaimProximity();

        /** Stops it. */
        void ReleaseProximity();
    }

    /** iio-sensor-proxy's compass, on its own object; its policy usually reserves it for geoclue. */
    @DBusInterfaceName("net.hadess.SensorProxy.Compass")
    public interface Compass extends DBusInterface {
        /** Starts the compass for this client. */
        void ClaimCompass();

        /** Stops it. */
        void ReleaseCompass();
    }

    private final SystemBus bus;
    private final SysfsSensors sysfs;
    private final Reused reused = new Reused();

    /**
     * Reads this machine's sensors.
     *
     * @param withPressure whether barometric pressure may be recorded (location is on)
     */
    public SensorSource(boolean withPressure) {
        this(SystemBus.system(), new SysfsSensors(new SystemFiles(java.nio.file.Path.of("/")), withPressure));
    }

    SensorSource(SystemBus bus, SysfsSensors sysfs) {
        this.bus = Objects.requireNonNull(bus, "bus");
        this.sysfs = Objects.requireNonNull(sysfs, "sysfs");
        reused.start(this::read);
    }

    @Override
    public String name() {
        return "Sensors";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        reused.get(this::read).addTo(record, name());
    }

    private Reused.Reading read() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(ContextFields.SENSORS_TIME, Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        Set<String> sources = new LinkedHashSet<>();
        Optional<String> problem = Optional.empty();
        Map<String, String> fromProxy = new LinkedHashMap<>();
        try {
            bus.read(SystemBus.TIMEOUT, c -> {
                proxy(c, fromProxy);
                return null;
            });
        } catch (Exception e) {
            fromProxy.clear();
            if (!(e instanceof SystemBus.Absent)) {
                problem = Optional.of("iio-sensor-proxy: " + SystemBus.why(e));
            }
        }
        if (!fromProxy.isEmpty()) {
            sources.add("iio-sensor-proxy");
            f.putAll(fromProxy);
        }
        try {
            Map<String, String> fromSysfs = Bounded.call("sysfs sensors", SYSFS_TIMEOUT, sysfs::read);
            fromSysfs.forEach((k, v) -> {
                String reading = k.endsWith(ContextFields.SENSORS_SENSOR_SUFFIX) ? k.substring(0, k.length() - ContextFields.SENSORS_SENSOR_SUFFIX.length()) : k;
                if (!fromProxy.containsKey(reading)) {
                    f.put(k, v);
                    sources.add("sysfs");
                }
            });
        } catch (Exception e) {
            problem = Optional.of(problem.map(p -> p + "; ").orElse("") + "sysfs: " + SystemBus.why(e));
        }
        f.put(ContextFields.SENSORS_SOURCE, sources.isEmpty() ? "none" : String.join(" ", sources));
        return new Reused.Reading(f, problem);
    }

    /** Claims each sensor the proxy has, waits for a first reading, reads, releases. */
    private static void proxy(SystemBus.Connection c, Map<String, String> f) throws Exception {
        if (!c.running(PROXY)) {
            return;
        }
        Map<String, Object> has = c.properties(PROXY, PROXY_PATH, PROXY);
        boolean accel = Boolean.TRUE.equals(has.get("HasAccelerometer"));
        boolean light = Boolean.TRUE.equals(has.get("HasAmbientLight"));
        boolean prox = Boolean.TRUE.equals(has.get("HasProximity"));
        Proxy p = c.remote(PROXY, PROXY_PATH, Proxy.class);
        try {
            if (accel) {
                p.ClaimAccelerometer();
            }
            if (light) {
                p.ClaimLight();
            }
            if (prox) {
                p.ClaimProximity();
            }
            Map<String, Object> v = has;
            long until = System.nanoTime() + SETTLE.toNanos();
            while (accel && "undefined".equals(v.get("AccelerometerOrientation")) && System.nanoTime() < until) {
                Thread.sleep(30);
                v = c.properties(PROXY, PROXY_PATH, PROXY);
            }
            v = c.properties(PROXY, PROXY_PATH, PROXY);
            if (accel && v.get("AccelerometerOrientation") instanceof String o && o.matches("[a-z-]{1,16}") && !o.equals("undefined")) {
                f.put(ContextFields.SENSORS_ORIENTATION, o);
            }
            if (light && v.get("LightLevel") instanceof Double level && Double.isFinite(level) && level >= 0) {
                String unit = v.get("LightLevelUnit") instanceof String u && u.matches("lux|vendor") ? u : "vendor";
                f.put(ContextFields.SENSORS_LIGHT, SysfsSensors.number(level) + " " + unit);
            }
            if (prox && v.get("ProximityNear") instanceof Boolean near) {
                f.put(ContextFields.SENSORS_PROXIMITY, near ? "near" : "far");
            }
        } finally {
            if (accel) {
                p.ReleaseAccelerometer();
            }
            if (light) {
                p.ReleaseLight();
            }
            if (prox) {
                p.ReleaseProximity();
            }
        }
        compass(c, f);
    }

    /** The compass heading, where the proxy has one and lets us claim it; refused is not a problem. */
    private static void compass(SystemBus.Connection c, Map<String, String> f) {
        String path = PROXY_PATH + "/Compass";
        String iface = PROXY + ".Compass";
        try {
            if (!Boolean.TRUE.equals(c.properties(PROXY, path, iface).get("HasCompass"))) {
                return;
            }
            Compass compass = c.remote(PROXY, path, Compass.class);
            compass.ClaimCompass();
            try {
                if (c.properties(PROXY, path, iface).get("CompassHeading") instanceof Double h && h >= 0 && h < 360) {
                    f.put(ContextFields.SENSORS_HEADING, SysfsSensors.number(h) + " degrees");
                }
            } finally {
                compass.ReleaseCompass();
            }
        } catch (Exception e) {
            // no compass object, or reserved for geoclue
        }
    }
}
