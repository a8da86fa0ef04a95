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
        for (String dev : list("sys/bus/iio/devices", "iio:device")) {
            String base = "sys/bus/iio/devices/" + dev + "/";
            String sensor = "iio " + files.text(base + "name").map(SysfsSensors::clean).orElse(dev);
            vector(base, "accel").ifPresent(v -> put(f, ContextFields.SENSORS_ACCELERATION, v + " m/s^2", sensor));
            vector(base, "magn").ifPresent(v -> put(f, ContextFields.SENSORS_MAGNETIC_FIELD, v + " gauss", sensor));
            scalar(base, "illuminance").ifPresent(v -> put(f, ContextFields.SENSORS_LIGHT, number(v) + " lux", sensor));
            if (withPressure) {
                scalar(base, "pressure").ifPresent(v -> put(f, ContextFields.SENSORS_PRESSURE, number(v) + " kPa", sensor));
            }
            scalar(base, "humidityrelative").ifPresent(v -> put(f, ContextFields.SENSORS_HUMIDITY, number(v / 1000) + " %", sensor));
            scalar(base, "temp").ifPresent(v -> temperatures.add(number(v / 1000) + " degC\0" + sensor));
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

    /** {@code x y z} of a three-axis channel, each {@code (raw + offset) * scale}. */
    private Optional<String> vector(String base, String type) {
        List<String> axes = new ArrayList<>();
        for (String axis : new String[] {"x", "y", "z"}) {
            OptionalDouble v = channel(base, type, "_" + axis);
            if (v.isEmpty()) {
                return Optional.empty();
            }
            axes.add(number(v.getAsDouble()));
        }
        return Optional.of(String.join(" ", axes));
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
