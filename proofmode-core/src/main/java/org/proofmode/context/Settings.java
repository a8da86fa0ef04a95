// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * What a proof records beyond the file and the device in broad strokes. The defaults are the app's:
 * location (with cell towers), network, radios and device identifiers off; sensors on.
 *
 * @param location record the location
 * @param network record the network
 * @param deviceIds record hashed device identifiers
 * @param sensors record motion and environment sensors
 * @param radios record Bluetooth adapters and nearby devices
 * @param imageHashes record pixel and perceptual hashes of images
 * @param frameHashes record the frame hashes of videos and the sample hashes of audio
 * @param j3m also write a J3M document
 * @param gpsdHost gpsd's host
 * @param gpsdPort gpsd's port
 * @param publishServer the evidence server 'publish' sends to ({@code ""}: none)
 * @param publishProxy the SOCKS5 proxy of 'publish' and 'timestamp' ({@code ""}: none)
 * @param publishMode {@code with-media} or {@code proof-only}
 * @param fullFilePath record the media file's full path instead of its name only
 */
public record Settings(boolean location, boolean network, boolean deviceIds, boolean sensors, boolean radios, boolean imageHashes, boolean frameHashes, boolean j3m,
        String gpsdHost, int gpsdPort, String publishServer, String publishProxy, String publishMode,
        boolean fullFilePath) {
    /** Validates the fields. */
    public Settings {
        Objects.requireNonNull(gpsdHost, "gpsdHost");
        SettingKey.GPSD_HOST.canonical(gpsdHost);
        if (gpsdPort < 1 || gpsdPort > 65535) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "gpsd.port " + gpsdPort + " is not a port number");
        }
        SettingKey.PUBLISH_SERVER.canonical(Objects.requireNonNull(publishServer, "publishServer"));
        SettingKey.PUBLISH_PROXY.canonical(Objects.requireNonNull(publishProxy, "publishProxy"));
        SettingKey.PUBLISH_MODE.canonical(Objects.requireNonNull(publishMode, "publishMode"));
    }

    /** The SOCKS5 proxy set for publishing and timestamps, if any. */
    public java.util.Optional<org.proofmode.util.Http.Socks> proxy() {
        return publishProxy.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(org.proofmode.util.Http.Socks.parse(publishProxy));
    }

    /** The defaults, as written into a new settings file. */
    public static Settings defaults() {
        return fromValues(Map.of());
    }

    /**
     * Returns these settings with one key changed.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the value is not valid for the key
     */
    public Settings with(SettingKey key, String value) {
        Map<SettingKey, String> v = new EnumMap<>(values());
        v.put(key, key.canonical(value));
        return fromValues(v);
    }

    /** Returns these settings with a boolean key changed. */
    public Settings with(SettingKey key, boolean value) {
        return with(key, Boolean.toString(value));
    }

    /** The value of one key, in its canonical spelling. */
    public String get(SettingKey key) {
        return values().get(key);
    }

    /** Every key's value, in file order. */
    public Map<SettingKey, String> values() {
        Map<SettingKey, String> v = new EnumMap<>(SettingKey.class);
        v.put(SettingKey.LOCATION, Boolean.toString(location));
        v.put(SettingKey.NETWORK, Boolean.toString(network));
        v.put(SettingKey.SENSORS, Boolean.toString(sensors));
        v.put(SettingKey.RADIOS, Boolean.toString(radios));
        v.put(SettingKey.DEVICE_IDS, Boolean.toString(deviceIds));
        v.put(SettingKey.IMAGE_HASHES, Boolean.toString(imageHashes));
        v.put(SettingKey.FRAME_HASHES, Boolean.toString(frameHashes));
        v.put(SettingKey.J3M, Boolean.toString(j3m));
        v.put(SettingKey.GPSD_HOST, gpsdHost);
        v.put(SettingKey.GPSD_PORT, Integer.toString(gpsdPort));
        v.put(SettingKey.PUBLISH_SERVER, publishServer);
        v.put(SettingKey.PUBLISH_PROXY, publishProxy);
        v.put(SettingKey.PUBLISH_MODE, publishMode);
        v.put(SettingKey.FILE_PATH, fullFilePath ? "full" : "name");
        return Collections.unmodifiableMap(v);
    }

    /** Builds settings from canonical values; keys that are absent take their defaults. */
    static Settings fromValues(Map<SettingKey, String> values) {
        Map<SettingKey, String> v = new EnumMap<>(SettingKey.class);
        for (SettingKey k : SettingKey.values()) {
            v.put(k, k.canonical(values.getOrDefault(k, k.defaultValue())));
        }
        return new Settings(Boolean.parseBoolean(v.get(SettingKey.LOCATION)), Boolean.parseBoolean(v.get(SettingKey.NETWORK)),
                Boolean.parseBoolean(v.get(SettingKey.DEVICE_IDS)), Boolean.parseBoolean(v.get(SettingKey.SENSORS)),
                Boolean.parseBoolean(v.get(SettingKey.RADIOS)), Boolean.parseBoolean(v.get(SettingKey.IMAGE_HASHES)),
                Boolean.parseBoolean(v.get(SettingKey.FRAME_HASHES)), Boolean.parseBoolean(v.get(SettingKey.J3M)), v.get(SettingKey.GPSD_HOST),
                Integer.parseInt(v.get(SettingKey.GPSD_PORT)), v.get(SettingKey.PUBLISH_SERVER), v.get(SettingKey.PUBLISH_PROXY),
                v.get(SettingKey.PUBLISH_MODE), v.get(SettingKey.FILE_PATH).equals("full"));
    }
}
