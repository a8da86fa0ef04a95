// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * CameraV's J3M ("JSON Mobile Media Metadata") document made from a proof record, for tools of the
 * CameraV era: {@code genealogy} (hashes, device key fingerprint, creation time, media path),
 * {@code data} ({@code exif}; one {@code sensorCapture} with the location, the serving cell, the Wi-Fi
 * networks, light, acceleration, pressure, humidity and device temperature, then one per Bluetooth device
 * seen, in CameraV's key names and units) and {@code intent} (the signing key). It holds nothing the proof record does not:
 * the same privacy settings decide what is in it, and hashed identifiers stay hashed.
 */
public final class J3m {
    /** The version string CameraV writes. */
    public static final String VERSION = "J3M version 1.0";

    /** CameraV's capture type code for a sensor snapshot. */
    static final int SENSOR_PLAYBACK = 271;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private J3m() {}

    /** Writes the J3M document of a record as UTF-8 JSON. */
    public static byte[] write(ProofRecord record) {
        Map<String, String> f = record.fields();
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode gen = root.putObject("genealogy");
        text(gen, "localMediaPath", f.get(ProofFields.FILE_PATH));
        long created = millis(f.get(ProofFields.PROOF_GENERATED));
        gen.put("dateCreated", created);
        text(gen, "createdOnDevice", f.get(ProofFields.PROOF_SIGNER));
        ArrayNode hashes = gen.putArray("hashes");
        Optional.ofNullable(f.get(ProofFields.FILE_HASH_SHA256)).ifPresent(hashes::add);
        Optional.ofNullable(f.get(ContextFields.IMAGE_PIXEL_HASH)).ifPresent(hashes::add);
        gen.put("j3m_version", VERSION);

        ObjectNode data = root.putObject("data");
        ObjectNode exif = data.putObject("exif");
        text(exif, "make", first(f, ContextFields.EXIF_MAKE, "Video.Make"));
        text(exif, "model", first(f, ContextFields.EXIF_MODEL, "Video.Model"));
        text(exif, "timestamp", first(f, ContextFields.EXIF_DATE_TIME_ORIGINAL, ContextFields.VIDEO_CREATION_TIME));
        number(exif, "width", first(f, ContextFields.IMAGE_WIDTH, "Video.Width"));
        number(exif, "height", first(f, ContextFields.IMAGE_HEIGHT, "Video.Height"));
        number(exif, "orientation", f.get("EXIF.Orientation"));
        String duration = first(f, "Video.Duration", "Audio.Duration");
        if (duration != null) {
            exif.put("duration", Math.round(Double.parseDouble(duration) * 1000));
        }
        if (f.containsKey(ContextFields.EXIF_GPS_LATITUDE) && f.containsKey(ContextFields.EXIF_GPS_LONGITUDE)) {
            exif.putArray("location").add(Double.parseDouble(f.get(ContextFields.EXIF_GPS_LATITUDE)))
                    .add(Double.parseDouble(f.get(ContextFields.EXIF_GPS_LONGITUDE)));
        }
        ArrayNode captures = data.putArray("sensorCapture");
        ObjectNode capture = captures.addObject();
        capture.put("timestamp", created);
        capture.put("captureType", SENSOR_PLAYBACK);
        ObjectNode playback = capture.putObject("sensorPlayback");
        if (f.containsKey(ProofFields.LOCATION_LATITUDE) && f.containsKey(ProofFields.LOCATION_LONGITUDE)) {
            playback.putArray("gps_coords").add(Double.parseDouble(f.get(ProofFields.LOCATION_LATITUDE)))
                    .add(Double.parseDouble(f.get(ProofFields.LOCATION_LONGITUDE)));
            number(playback, "gps_accuracy", f.get(ProofFields.LOCATION_ACCURACY));
            number(playback, "gps_altitude", f.get(ContextFields.LOCATION_ALTITUDE));
            Optional.ofNullable(f.get(ProofFields.LOCATION_TIME)).flatMap(ProofTimes::parse)
                    .ifPresent(t -> playback.put("gps_time", t.toEpochMilli()));
        }
        String count = f.get(ContextFields.NETWORK_WIFI_COUNT);
        if (count != null && Integer.parseInt(count) > 0) {
            ArrayNode wifi = playback.putArray("visibleWifiNetworks");
            for (int i = 1; i <= Integer.parseInt(count); i++) {
                String p = ContextFields.NETWORK_WIFI + i + ".";
                ObjectNode n = wifi.addObject();
                text(n, "ssid", f.get(p + "SSID"));
                text(n, "bssid", f.get(p + "BSSID"));
                text(n, "wifiLevel", f.get(p + "Signal"));
            }
        }
        sensors(f, playback);
        cell(f, playback);
        bluetooth(f, created, captures);
        ObjectNode intent = root.putObject("intent");
        text(intent, "pgpKeyFingerprint", f.get(ProofFields.PROOF_SIGNER));
        text(intent, "intendedDestination", f.get(ProofFields.NOTES));
        try {
            return (MAPPER.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("writing JSON to memory failed", e);
        }
    }

    /** CameraV's environment and motion keys, from readings written {@code value unit}. */
    private static void sensors(Map<String, String> f, ObjectNode playback) {
        reading(f, ContextFields.SENSORS_LIGHT, "lux").ifPresent(v -> number(playback, "lightMeterValue", v));
        reading(f, ContextFields.SENSORS_PRESSURE, "kPa").ifPresent(v -> playback.put("pressureHPAOrMBAR", Double.parseDouble(v) * 10));
        reading(f, ContextFields.SENSORS_HUMIDITY, "%").ifPresent(v -> number(playback, "relativeHumidity", v));
        reading(f, ContextFields.SENSORS_TEMPERATURE + "1", "degC").ifPresent(v -> number(playback, "deviceTemperatureCelsius", v));
        reading(f, ContextFields.SENSORS_ACCELERATION, "m/s^2").map(v -> v.split(" ")).filter(a -> a.length == 3).ifPresent(a -> {
            number(playback, "acc_x", a[0]);
            number(playback, "acc_y", a[1]);
            number(playback, "acc_z", a[2]);
        });
    }

    /** The value of a {@code value unit} field whose unit is {@code unit}. */
    private static Optional<String> reading(Map<String, String> f, String field, String unit) {
        String v = f.get(field);
        if (v == null || !v.endsWith(" " + unit)) {
            return Optional.empty();
        }
        String value = v.substring(0, v.length() - unit.length() - 1);
        return value.matches("-?[0-9.]+( -?[0-9.]+)*") ? Optional.of(value) : Optional.empty();
    }

    /** The serving cell as CameraV wrote it: {@code cellTowerId}, {@code LAC} (the TAC on LTE), {@code MCC}, {@code MNC}. */
    private static void cell(Map<String, String> f, ObjectNode playback) {
        String count = f.get(ContextFields.CELL_COUNT);
        for (int i = 1; count != null && i <= Integer.parseInt(count); i++) {
            String p = ContextFields.CELL + i + ".";
            if ("true".equals(f.get(p + "Serving")) && f.containsKey(p + "CellId")) {
                number(playback, "cellTowerId", f.get(p + "CellId"));
                number(playback, "LAC", first(f, p + "LAC", p + "TAC"));
                text(playback, "MCC", f.get(p + "MCC"));
                text(playback, "MNC", f.get(p + "MNC"));
                return;
            }
        }
    }

    /** One capture per Bluetooth device, as CameraV logged each device it saw; the address stays hashed. */
    private static void bluetooth(Map<String, String> f, long created, ArrayNode captures) {
        String count = f.get(ContextFields.BLUETOOTH_DEVICE_COUNT);
        for (int i = 1; count != null && i <= Integer.parseInt(count); i++) {
            String p = ContextFields.BLUETOOTH_DEVICE + i + ".";
            ObjectNode c = captures.addObject();
            c.put("timestamp", created);
            c.put("captureType", SENSOR_PLAYBACK);
            ObjectNode b = c.putObject("sensorPlayback");
            text(b, "bluetoothDeviceAddress", f.get(p + "Address"));
            text(b, "bluetoothDeviceName", f.get(p + "Name"));
        }
    }

    private static String first(Map<String, String> f, String a, String b) {
        return f.containsKey(a) ? f.get(a) : f.get(b);
    }

    private static long millis(String time) {
        return Optional.ofNullable(time).flatMap(ProofTimes::parse).map(Instant::toEpochMilli).orElse(0L);
    }

    private static void text(ObjectNode n, String name, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(name, value);
        }
    }

    private static void number(ObjectNode n, String name, String value) {
        if (value == null) {
            return;
        }
        try {
            double d = Double.parseDouble(value);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                n.put(name, (long) d);
            } else {
                n.put(name, d);
            }
        } catch (NumberFormatException e) {
            n.put(name, value);
        }
    }
}
