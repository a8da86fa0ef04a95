// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.proofmode.proof.ContextFields;

/**
 * Sensors the kernel exposes in {@code /sys}, read as its ABI documents them
 * ({@code Documentation/ABI/testing/sysfs-bus-iio}, {@code Documentation/hwmon/sysfs-interface.rst}):
 * IIO devices under {@code /sys/bus/iio/devices/iio:deviceN} with a {@code name} and channels
 * {@code in_<type>[_<axis>]_input} (already in the type's unit) or {@code _raw} with {@code _offset} and
 * {@code _scale} ({@code (raw + offset) * scale}); hwmon chips under {@code /sys/class/hwmon/hwmonN} with
 * {@code tempK_input} in millidegrees Celsius and an optional {@code tempK_label}. The first IIO device of
 * each kind is recorded, and at most {@value #MAX_TEMPERATURES} temperatures.
 *
 * <p>Two readings are derived. Proximity is {@code near} or {@code far} where the driver gives its
 * {@code in_proximity_nearlevel} (what iio-sensor-proxy compares with), else the raw count. A heading comes
 * from an accelerometer and a magnetometer together, each turned into the device's frame by its
 * {@code mount_matrix} where the driver has one: the direction of the device's top edge (its y axis) from
 * magnetic north, tilted back to the horizontal by gravity, as Android's {@code getRotationMatrix} and
 * {@code getOrientation} compute it. It is uncalibrated (the magnetometer's hard-iron offset is not removed),
 * which the recorded sensor name says.
 */
final class SysfsSensors {
    static final int MAX_TEMPERATURES = 16;
    private static final int MAX_DEVICES = 64;

    private final SystemFiles files;
    private final boolean withPressure;

    /**
     * @param files the system root
     * @param withPressure whether pressure may be recorded (location on)
     */
    SysfsSensors(SystemFiles files, boolean withPressure) {
        this.files = files;
        this.withPressure = withPressure;
    }

    /** The readings, as {@code Sensors.*} fields with their {@code .Sensor}. */
    Map<String, String> read() {
        Map<String, String> f = new LinkedHashMap<>();
        List<String> temperatures = new ArrayList<>();
        Reading gravity = null;
        Reading field = null;
        for (String dev : list("sys/bus/iio/devices", "iio:device")) {
            String base = "sys/bus/iio/devices/" + dev + "/";
            String sensor = "iio " + files.text(base + "name").map(SysfsSensors::clean).orElse(dev);
            Optional<double[]> a = vector(base, "accel");
            a.ifPresent(v -> put(f, ContextFields.SENSORS_ACCELERATION, text(v) + " m/s^2", sensor));
            if (a.isPresent() && gravity == null) {
                gravity = new Reading(mounted(base, "accel", a.get()), sensor);
            }
            Optional<double[]> m = vector(base, "magn");
            m.ifPresent(v -> put(f, ContextFields.SENSORS_MAGNETIC_FIELD, text(v) + " gauss", sensor));
            if (m.isPresent() && field == null) {
                field = new Reading(mounted(base, "magn", m.get()), sensor);
            }
            scalar(base, "illuminance").ifPresent(v -> put(f, ContextFields.SENSORS_LIGHT, number(v) + " lux", sensor));
            proximity(base).ifPresent(v -> put(f, ContextFields.SENSORS_PROXIMITY, v, sensor));
            if (withPressure) {
                scalar(base, "pressure").ifPresent(v -> put(f, ContextFields.SENSORS_PRESSURE, number(v) + " kPa", sensor));
            }
            scalar(base, "humidityrelative").ifPresent(v -> put(f, ContextFields.SENSORS_HUMIDITY, number(v / 1000) + " %", sensor));
            scalar(base, "temp").ifPresent(v -> temperatures.add(number(v / 1000) + " degC\0" + sensor));
        }
        if (gravity != null && field != null) {
            String sensor = gravity.sensor().equals(field.sensor()) ? gravity.sensor() : gravity.sensor() + " + " + field.sensor();
            OptionalDouble h = heading(gravity.v(), field.v());
            if (h.isPresent()) {
                put(f, ContextFields.SENSORS_HEADING, number(Math.round(h.getAsDouble() * 10) / 10.0) + " degrees",
                        sensor + " (magnetic, uncalibrated)");
            }
        }
        for (String chip : list("sys/class/hwmon", "hwmon")) {
            String base = "sys/class/hwmon/" + chip + "/";
            String name = files.text(base + "name").map(SysfsSensors::clean).orElse(chip);
            for (int k = 1; k <= 32; k++) {
                Optional<Double> t = parse(files.text(base + "temp" + k + "_input"));
                if (t.isPresent()) {
                    String label = files.text(base + "temp" + k + "_label").map(SysfsSensors::clean).orElse("temp" + k);
                    temperatures.add(number(t.get() / 1000) + " degC\0hwmon " + name + " " + label);
                }
            }
        }
        for (int i = 0; i < Math.min(temperatures.size(), MAX_TEMPERATURES); i++) {
            String[] t = temperatures.get(i).split("\0", 2);
            put(f, ContextFields.SENSORS_TEMPERATURE + (i + 1), t[0], t[1]);
        }
        return f;
    }

    private static void put(Map<String, String> f, String field, String value, String sensor) {
        if (!f.containsKey(field)) {
            f.put(field, value);
            f.put(field + ContextFields.SENSORS_SENSOR_SUFFIX, sensor);
        }
    }

    /** A vector in the device's frame, and the sensor it came from. */
    private record Reading(double[] v, String sensor) {
    }

    /** {@code x y z} of a three-axis channel, each {@code (raw + offset) * scale}. */
    private Optional<double[]> vector(String base, String type) {
        double[] v = new double[3];
        String[] axes = {"x", "y", "z"};
        for (int i = 0; i < 3; i++) {
            OptionalDouble c = channel(base, type, "_" + axes[i]);
            if (c.isEmpty()) {
                return Optional.empty();
            }
            v[i] = c.getAsDouble();
        }
        return Optional.of(v);
    }

    private static String text(double[] v) {
        return number(v[0]) + " " + number(v[1]) + " " + number(v[2]);
    }

    /**
     * A sensor's vector in the device's frame: its {@code in_<type>_mount_matrix} (or the device's
     * {@code mount_matrix}), three rows {@code "a, b, c; d, e, f; g, h, i"} applied as {@code R * v}; the
     * vector as read where there is none or it is not a matrix.
     */
    private double[] mounted(String base, String type, double[] v) {
        Optional<String> text = files.text(base + "in_" + type + "_mount_matrix").or(() -> files.text(base + "mount_matrix"));
        if (text.isEmpty()) {
            return v;
        }
        String[] rows = text.get().trim().split(";");
        if (rows.length != 3) {
            return v;
        }
        double[] out = new double[3];
        try {
            for (int r = 0; r < 3; r++) {
                String[] cells = rows[r].trim().split("\\s*,\\s*");
                if (cells.length != 3) {
                    return v;
                }
                for (int c = 0; c < 3; c++) {
                    double x = Double.parseDouble(cells[c]);
                    if (!Double.isFinite(x)) {
                        return v;
                    }
                    out[r] += x * v[c];
                }
            }
        } catch (NumberFormatException e) {
            return v;
        }
        return out;
    }

    /**
     * The heading of the device's y axis in degrees from magnetic north, [0, 360): east is the magnetic field
     * crossed with gravity, north is gravity crossed with east, and the heading is the angle of the y axis
     * between them. Empty when the two are (nearly) parallel or one is (nearly) zero: free fall, or a field
     * the accelerometer cannot tilt back.
     */
    static OptionalDouble heading(double[] gravity, double[] field) {
        double[] east = cross(field, gravity);
        double ne = norm(east);
        double ng = norm(gravity);
        double nf = norm(field);
        if (ng < 1 || nf == 0 || ne < 1e-3 * ng * nf) {
            return OptionalDouble.empty();
        }
        double[] up = {gravity[0] / ng, gravity[1] / ng, gravity[2] / ng};
        double[] e = {east[0] / ne, east[1] / ne, east[2] / ne};
        double[] north = cross(up, e);
        double deg = Math.toDegrees(Math.atan2(e[1], north[1]));
        return OptionalDouble.of(deg < 0 ? deg + 360 : deg >= 360 ? deg - 360 : deg);
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double norm(double[] a) {
        return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }

    /**
     * {@code near} or {@code far} against the driver's {@code in_proximity[0]_nearlevel}, else the raw count
     * ({@code 412 (raw, larger is nearer)}).
     */
    private Optional<String> proximity(String base) {
        for (String index : new String[] {"", "0"}) {
            OptionalDouble v = channel(base, "proximity" + index, "");
            if (v.isPresent()) {
                Optional<Double> near = parse(files.text(base + "in_proximity" + index + "_nearlevel"))
                        .or(() -> parse(files.text(base + "in_proximity_nearlevel")));
                return Optional.of(near.map(n -> v.getAsDouble() >= n ? "near" : "far")
                        .orElse(number(v.getAsDouble()) + " (raw, larger is nearer)"));
            }
        }
        return Optional.empty();
    }

    /** A channel without an axis: {@code in_<type>_input}, else with index 0, else {@code _raw} scaled. */
    private Optional<Double> scalar(String base, String type) {
        for (String index : new String[] {"", "0"}) {
            OptionalDouble v = channel(base, type + index, "");
            if (v.isPresent()) {
                return Optional.of(v.getAsDouble());
            }
        }
        return Optional.empty();
    }

    private OptionalDouble channel(String base, String type, String axis) {
        String ch = base + "in_" + type + axis;
        Optional<Double> input = parse(files.text(ch + "_input"));
        if (input.isPresent()) {
            return OptionalDouble.of(input.get());
        }
        Optional<Double> raw = parse(files.text(ch + "_raw"));
        if (raw.isEmpty()) {
            return OptionalDouble.empty();
        }
        double offset = parse(files.text(ch + "_offset")).or(() -> parse(files.text(base + "in_" + type + "_offset"))).orElse(0.0);
        double scale = parse(files.text(ch + "_scale")).or(() -> parse(files.text(base + "in_" + type + "_scale"))).orElse(1.0);
        return OptionalDouble.of((raw.get() + offset) * scale);
    }

    private static Optional<Double> parse(Optional<String> s) {
        try {
            return s.map(Double::parseDouble).filter(Double::isFinite);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Entries of a folder whose names start with {@code prefix}, in natural order ({@code hwmon2} before {@code hwmon10}). */
    private List<String> list(String folder, String prefix) {
        List<String> names = new ArrayList<>();
        Path dir = files.root().resolve(folder);
        if (!Files.isDirectory(dir)) {
            return names;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, prefix + "*")) {
            for (Path p : s) {
                if (names.size() < MAX_DEVICES && p.getFileName().toString().matches(java.util.regex.Pattern.quote(prefix) + "\\d{1,5}")) {
                    names.add(p.getFileName().toString());
                }
            }
        } catch (IOException | SecurityException e) {
            return names;
        }
        names.sort((a, b) -> Integer.compare(Integer.parseInt(a.substring(prefix.length())), Integer.parseInt(b.substring(prefix.length()))));
        return names;
    }

    /** A device or label name as printable ASCII, at most 64 characters. */
    private static String clean(String s) {
        String c = s.replaceAll("[^\\x20-\\x7e]", "?");
        return c.length() > 64 ? c.substring(0, 64) : c;
    }

    /** A reading with at most six decimals and no trailing zeros: {@code 9.81}, {@code 120}. */
    static String number(double v) {
        BigDecimal d = BigDecimal.valueOf(v).setScale(6, RoundingMode.HALF_EVEN).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}
