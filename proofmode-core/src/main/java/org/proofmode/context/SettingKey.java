// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The keys of the settings file ({@code PROOFMODE_HOME/settings}), with their defaults and the comment
 * written above each. The set is closed: a key that is not listed here is an error, so a misspelt
 * setting can never silently fall back to a default.
 */
public enum SettingKey {
    /** Record where the device is (gpsd, {@code --location}, or the media's own GPS tags). */
    LOCATION("location", "false", Kind.BOOLEAN,
            "Record the location: from a running gpsd, from --location, or from the media's GPS tags, and the",
            "mobile network cells in reach (ModemManager, oFono). Off by default, as in the ProofMode app: a",
            "location can put a person in danger."),
    /** Record the network: interfaces, addresses, gateway, visible Wi-Fi networks. */
    NETWORK("network", "false", Kind.BOOLEAN,
            "Record the network: interfaces, IP addresses, default gateway, visible Wi-Fi networks.",
            "MAC addresses and BSSIDs are stored only as keyed hashes (hmac-sha256:...). Off by default."),
    /** Record motion and environment sensors: orientation, light, proximity, temperatures. */
    SENSORS("sensors", "true", Kind.BOOLEAN,
            "Record motion and environment sensors (iio-sensor-proxy, else the kernel's IIO and hwmon): orientation,",
            "acceleration, light, proximity, humidity, temperatures. On by default: they say how the device was held",
            "and lit, not where it was; barometric pressure (an altimeter) only when location is on too."),
    /** Record Bluetooth adapters and the devices seen nearby. */
    RADIOS("radios", "false", Kind.BOOLEAN,
            "Record Bluetooth adapters and the devices seen nearby (BlueZ): name, class, signal strength,",
            "addresses as keyed hashes (hmac-sha256:...). Off by default: nearby devices tell who was around."),
    /** Record hashed device identifiers: hostname, DMI serial, machine id, camera serial numbers. */
    DEVICE_IDS("device-ids", "false", Kind.BOOLEAN,
            "Record device identifiers (hostname, DMI product serial, machine id, camera serial numbers)",
            "as keyed hashes: equal on this installation, not reversible elsewhere. Off by default."),
    /** Record the pixel hash and the perceptual hash of still images. */
    IMAGE_HASHES("image-hashes", "true", Kind.BOOLEAN,
            "Record a hash of the decoded pixels (survives metadata edits) and a 64-bit perceptual hash",
            "(finds re-encoded copies) of JPEG, PNG, GIF, BMP and TIFF images. Costs one decode per image."),
    /** Record the frame hash of videos and the sample hash of audio, computed by FFmpeg. */
    FRAME_HASHES("frame-hashes", "true", Kind.BOOLEAN,
            "Record a hash of each video's decoded frames (Video.FrameHash, with the frame list in <sha256>.frames)",
            "and of its or an audio file's decoded samples (Audio.SampleHash): they survive re-muxing and metadata",
            "edits, and 'ffmpeg -f framehash' / '-f hash' recompute them. Needs ffmpeg; costs one decode per file."),
    /** Also write CameraV's J3M document beside each proof. */
    J3M("j3m", "false", Kind.BOOLEAN,
            "Also write <sha256>.j3m.json (CameraV's J3M layout: genealogy, data, intent), signed."),
    /** Host of the gpsd daemon. */
    GPSD_HOST("gpsd.host", "127.0.0.1", Kind.HOST,
            "Where gpsd listens, when location is on."),
    /** TCP port of the gpsd daemon. */
    GPSD_PORT("gpsd.port", "2947", Kind.PORT,
            "gpsd's TCP port."),
    /** The evidence server 'publish' sends to. */
    PUBLISH_SERVER("publish.server", "", Kind.URL,
            "The evidence server 'proofmode publish' sends proofs to (http:// or https://; empty: none).",
            "'proofmode publish login URL' sets it and keeps the upload token owner-only in the home."),
    /** The SOCKS5 proxy for publishing and timestamps. */
    PUBLISH_PROXY("publish.proxy", "", Kind.PROXY,
            "A SOCKS5 proxy for every connection of 'publish' and 'timestamp': socks5h://127.0.0.1:9050 for Tor.",
            "Host names are resolved by the proxy, never here. Empty: connect directly."),
    /** What 'publish' sends by default. */
    PUBLISH_MODE("publish.mode", "with-media", Kind.MODE,
            "What 'publish' sends: with-media (the share bundle with the media) or proof-only."),
    /** How a proof names its media file: by name only, or by its full path. */
    FILE_PATH("context.file-path", "name", Kind.FILE_PATH,
            "How a proof names its media file (the \"File Path\" field): name (IMG_0001.jpg, the default) or full",
            "(/home/you/Pictures/IMG_0001.jpg). A full path tells whoever receives the proof your user name and folders.");

    private enum Kind { BOOLEAN, HOST, PORT, URL, PROXY, MODE, FILE_PATH }

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:\\-\\[\\]]{1,253}");

    private final String key;
    private final String defaultValue;
    private final Kind kind;
    private final List<String> comment;

    SettingKey(String key, String defaultValue, Kind kind, String... comment) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.kind = kind;
        this.comment = List.of(comment);
    }

    /** The key as written in the file and on the command line, e.g. {@code device-ids}. */
    public String key() {
        return key;
    }

    /** The value used when the file does not set this key. */
    public String defaultValue() {
        return defaultValue;
    }

    /** The comment lines written above the key in a new settings file. */
    public List<String> comment() {
        return comment;
    }

    /** What values this key takes, for messages and help. */
    public String valueHint() {
        return switch (kind) {
            case BOOLEAN -> "true or false";
            case HOST -> "a host name or IP address";
            case PORT -> "a port number from 1 to 65535";
            case URL -> "an http:// or https:// URL, or nothing";
            case PROXY -> "socks5h://HOST:PORT, or nothing";
            case MODE -> "with-media or proof-only";
            case FILE_PATH -> "name or full";
        };
    }

    /**
     * Finds a key by its name.
     *
     * @param name the key as written, e.g. {@code location}
     * @return the key, or empty if there is none of that name
     */
    public static Optional<SettingKey> named(String name) {
        return Arrays.stream(values()).filter(k -> k.key.equals(name)).findFirst();
    }

    /** The names of all keys, in file order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(SettingKey::key).toList();
    }

    /**
     * Checks a value and returns it in its canonical spelling ({@code on}, {@code yes} become {@code true}).
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the value is not one this key takes
     */
    public String canonical(String value) {
        String v = value == null ? "" : value.trim();
        switch (kind) {
            case BOOLEAN -> {
                String l = v.toLowerCase(Locale.ROOT);
                if (List.of("true", "on", "yes").contains(l)) {
                    return "true";
                }
                if (List.of("false", "off", "no").contains(l)) {
                    return "false";
                }
            }
            case HOST -> {
                if (HOST.matcher(v).matches()) {
                    return v;
                }
            }
            case PORT -> {
                if (v.matches("\\d{1,5}") && Integer.parseInt(v) >= 1 && Integer.parseInt(v) <= 65535) {
                    return Integer.toString(Integer.parseInt(v));
                }
            }
            case URL -> {
                if (v.isEmpty()) {
                    return v;
                }
                try {
                    java.net.URI u = new java.net.URI(v);
                    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
                    if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null && u.getRawUserInfo() == null
                            && u.getRawQuery() == null && u.getRawFragment() == null) {
                        return v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
                    }
                } catch (java.net.URISyntaxException e) {
                    // not a URL: refused below
                }
            }
            case PROXY -> {
                if (v.isEmpty()) {
                    return v;
                }
                return org.proofmode.util.Http.Socks.parse(v).url();
            }
            case MODE -> {
                String l = v.toLowerCase(Locale.ROOT);
                if (l.equals("with-media") || l.equals("proof-only")) {
                    return l;
                }
            }
            case FILE_PATH -> {
                String l = v.toLowerCase(Locale.ROOT);
                if (l.equals("name") || l.equals("full")) {
                    return l;
                }
            }
            default -> throw new IllegalStateException(kind.name());
        }
        throw new ProofModeException(Failure.BAD_ARGUMENT,
                "setting " + key + ": '" + value + "' is not valid; expected " + valueHint());
    }
}
