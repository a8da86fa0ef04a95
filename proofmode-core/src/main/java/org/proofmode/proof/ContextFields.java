// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;


/**
 * Names of the context fields the metadata sources of this package add to a proof record, beyond those
 * in {@link ProofFields}. Like those, they are a stable contract. Hashed identifiers
 * are {@code hmac-sha256:<hex>} (see {@link IdentifierHasher}); times are ISO-8601 UTC unless a field
 * says it copies the media's own text.
 */
public final class ContextFields {
    /** Operating system name, e.g. {@code Linux}. */
    public static final String DEVICE_OS_NAME = "Device.OS.Name";
    /** Operating system (kernel) version. */
    public static final String DEVICE_OS_VERSION = "Device.OS.Version";
    /** The distribution's name and version, from {@code /etc/os-release}. */
    public static final String DEVICE_OS_DISTRIBUTION = "Device.OS.Distribution";
    /** Hardware vendor (DMI {@code sys_vendor}). */
    public static final String DEVICE_VENDOR = "Device.Vendor";
    /** Hardware model (DMI {@code product_name}). */
    public static final String DEVICE_MODEL = "Device.Model";
    /** Processor model. */
    public static final String DEVICE_CPU = "Device.CPU";
    /** Number of processors available. */
    public static final String DEVICE_CPU_COUNT = "Device.CPU.Count";
    /** Physical memory in bytes. */
    public static final String DEVICE_MEMORY = "Device.Memory";
    /** Locale as a BCP 47 tag, e.g. {@code en-GB}. */
    public static final String DEVICE_LOCALE = "Device.Locale";
    /** Time zone id, e.g. {@code Europe/Berlin}. */
    public static final String DEVICE_TIME_ZONE = "Device.TimeZone";
    /** The zone's offset from UTC at proof time, e.g. {@code +01:00}. */
    public static final String DEVICE_TIME_ZONE_OFFSET = "Device.TimeZone.Offset";
    /** The system clock when the context was read, ISO-8601 UTC with milliseconds. */
    public static final String DEVICE_CLOCK_TIME = "Device.Clock.Time";
    /** Whether the system clock is synchronised to a time server: {@code true}, {@code false} or {@code unknown}. */
    public static final String DEVICE_CLOCK_SYNCHRONISED = "Device.Clock.Synchronised";
    /** How synchronisation was learnt, e.g. {@code timedatectl}. */
    public static final String DEVICE_CLOCK_SOURCE = "Device.Clock.Source";
    /** Hashed host name (device identifiers on). */
    public static final String DEVICE_HOSTNAME = "Device.Hostname";
    /** Hashed DMI product serial (device identifiers on, when readable). */
    public static final String DEVICE_SERIAL = "Device.Serial";
    /** Hashed machine id (device identifiers on). */
    public static final String DEVICE_MACHINE_ID = "Device.MachineId";

    /** Names of the network interfaces that are up, space-separated. */
    public static final String NETWORK_INTERFACES = "Network.Interfaces";
    /** Prefix of per-interface fields: {@code Network.Interface.<name>.MAC} and {@code .Addresses}. */
    public static final String NETWORK_INTERFACE = "Network.Interface.";
    /** The IPv4 default gateway and its interface. */
    public static final String NETWORK_GATEWAY = "Network.Gateway";
    /** Number of visible Wi-Fi networks recorded. */
    public static final String NETWORK_WIFI_COUNT = "Network.WiFi.Count";
    /** Prefix of per-network fields: {@code Network.WiFi.<n>.SSID}, {@code .BSSID} (hashed), {@code .Signal}. */
    public static final String NETWORK_WIFI = "Network.WiFi.";

    /** Altitude of the fix, metres above sea level. */
    public static final String LOCATION_ALTITUDE = "Location.Altitude";
    /** Seconds from the fix to the proof ({@code Proof Generated} minus {@code Location.Time}). */
    public static final String LOCATION_AGE = "Location.Age";

    /** SHA-256 over the decoded pixels, lower-case hex (see {@code ImageHashes}). */
    public static final String IMAGE_PIXEL_HASH = "Image.PixelHash";
    /** 64-bit DCT perceptual hash, 16 lower-case hex digits. */
    public static final String IMAGE_PERCEPTUAL_HASH = "Image.PerceptualHash";
    /**
     * SHA-256 over the concatenated SHA-256 digests of the first video stream's decoded frames, lower-case
     * hex: each digest as {@code ffmpeg -i FILE -map 0:v:0 -f framehash -hash sha256 -} prints it.
     */
    public static final String VIDEO_FRAME_HASH = "Video.FrameHash";
    /** How many frames {@link #VIDEO_FRAME_HASH} covers. */
    public static final String VIDEO_FRAME_COUNT = "Video.FrameCount";
    /** What {@code ffmpeg -i FILE -map 0:a:0 -f hash -hash sha256 -} prints for the first audio stream, lower-case hex. */
    public static final String AUDIO_SAMPLE_HASH = "Audio.SampleHash";
    /** The decoder of the frame and sample hashes, e.g. {@code ffmpeg 5.1.9-0+deb12u1}. */
    public static final String MEDIA_DECODER = "Media.Decoder";

    /** Image width in pixels, from the image's own header. */
    public static final String IMAGE_WIDTH = "Image.Width";
    /** Image height in pixels. */
    public static final String IMAGE_HEIGHT = "Image.Height";

    /** Camera make (EXIF, copied as written). */
    public static final String EXIF_MAKE = "EXIF.Make";
    /** Camera model. */
    public static final String EXIF_MODEL = "EXIF.Model";
    /** Capture time as written in EXIF, {@code YYYY:MM:DD HH:MM:SS}, local to the camera. */
    public static final String EXIF_DATE_TIME_ORIGINAL = "EXIF.DateTimeOriginal";
    /** The capture time's offset from UTC, e.g. {@code +02:00}, when the camera wrote one. */
    public static final String EXIF_OFFSET_TIME_ORIGINAL = "EXIF.OffsetTimeOriginal";
    /** EXIF GPS latitude, decimal degrees (location on). */
    public static final String EXIF_GPS_LATITUDE = "EXIF.GPSLatitude";
    /** EXIF GPS longitude, decimal degrees (location on). */
    public static final String EXIF_GPS_LONGITUDE = "EXIF.GPSLongitude";
    /** EXIF GPS altitude in metres (location on). */
    public static final String EXIF_GPS_ALTITUDE = "EXIF.GPSAltitude";
    /** EXIF GPS date and time, ISO-8601 UTC (location on). */
    public static final String EXIF_GPS_DATE_TIME = "EXIF.GPSDateTime";
    /** Video GPS latitude from the container (location on). */
    public static final String VIDEO_GPS_LATITUDE = "Video.GPSLatitude";
    /** Video GPS longitude from the container (location on). */
    public static final String VIDEO_GPS_LONGITUDE = "Video.GPSLongitude";
    /** The container's creation time, ISO-8601 UTC. */
    public static final String VIDEO_CREATION_TIME = "Video.CreationTime";

    private ContextFields() {}
}
