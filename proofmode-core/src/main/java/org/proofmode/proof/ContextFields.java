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
    /**
     * How synchronisation was learnt: {@code timedated} (systemd-timedated over D-Bus), {@code systemd-timesyncd},
     * {@code chronyc}; proofs made before clock trust also say {@code timedatectl}.
     */
    public static final String DEVICE_CLOCK_SOURCE = "Device.Clock.Source";
    /** Whether network time synchronisation is switched on, as timedated says: {@code on} or {@code off}. */
    public static final String DEVICE_CLOCK_NTP = "Device.Clock.NTP";
    /** The service that sets the clock: {@code systemd-timesyncd} or {@code chronyd}. */
    public static final String DEVICE_CLOCK_SERVICE = "Device.Clock.Service";
    /** The time server it last synchronised with, as the service names it (host name or address). */
    public static final String DEVICE_CLOCK_SERVER = "Device.Clock.Server";
    /** The server's NTP stratum (1: it has a reference clock). */
    public static final String DEVICE_CLOCK_STRATUM = "Device.Clock.Stratum";
    /** When the clock was last synchronised, ISO-8601 UTC with milliseconds. */
    public static final String DEVICE_CLOCK_LAST_SYNC = "Device.Clock.LastSync";
    /** The local clock minus the server's time at the last synchronisation, seconds with six decimals. */
    public static final String DEVICE_CLOCK_OFFSET = "Device.Clock.Offset";
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

    /**
     * Whether the system runs in a virtual machine: the hypervisor as {@code systemd-detect-virt --vm} names it
     * ({@code kvm}, {@code vmware}, {@code oracle}, ...), or {@code none}.
     */
    public static final String ENVIRONMENT_VIRTUAL_MACHINE = "Environment.VirtualMachine";
    /** Whether it runs in a container: {@code docker}, {@code podman}, {@code lxc}, {@code wsl}, ... or {@code none}. */
    public static final String ENVIRONMENT_CONTAINER = "Environment.Container";
    /** How the two above were learnt: {@code systemd-detect-virt} or {@code /proc} (the files it reads). */
    public static final String ENVIRONMENT_DETECTED_BY = "Environment.DetectedBy";
    /** A process tracing this one (a debugger, {@code strace}): its command name, or {@code none}. */
    public static final String ENVIRONMENT_TRACER = "Environment.Tracer";
    /** UEFI Secure Boot: {@code enabled}, {@code disabled}, or {@code unsupported} (no UEFI variables). */
    public static final String ENVIRONMENT_SECURE_BOOT = "Environment.SecureBoot";
    /** The TPM the kernel sees: its major version ({@code 2}, {@code 1.2}), or {@code none}. */
    public static final String ENVIRONMENT_TPM = "Environment.TPM";
    /**
     * Agents in this JVM that can rewrite classes or read memory ({@code -javaagent}, {@code -agentlib},
     * {@code -agentpath}: the file or library names only), space-separated, or {@code none}.
     */
    public static final String ENVIRONMENT_JVM_AGENTS = "Environment.JVM.Agents";

    /** When the sensors were read, ISO-8601 UTC with milliseconds. */
    public static final String SENSORS_TIME = "Sensors.Time";
    /** Where the readings came from: {@code iio-sensor-proxy}, {@code sysfs}, or both. */
    public static final String SENSORS_SOURCE = "Sensors.Source";
    /** The screen's orientation from the accelerometer (iio-sensor-proxy): {@code normal}, {@code bottom-up}, {@code left-up}, {@code right-up}. */
    public static final String SENSORS_ORIENTATION = "Sensors.Orientation";
    /** The accelerometer's x, y and z, then the unit: {@code 0.12 -9.81 0.30 m/s^2} (sysfs IIO). */
    public static final String SENSORS_ACCELERATION = "Sensors.Acceleration";
    /** The magnetometer's x, y and z, then the unit: {@code gauss} (sysfs IIO). */
    public static final String SENSORS_MAGNETIC_FIELD = "Sensors.MagneticField";
    /** The compass heading, then {@code degrees} (iio-sensor-proxy, when it lets us read it). */
    public static final String SENSORS_HEADING = "Sensors.Heading";
    /** Ambient light and its unit: {@code 120.5 lux}, or {@code 40 vendor} when the sensor has no calibrated unit. */
    public static final String SENSORS_LIGHT = "Sensors.Light";
    /** Whether something is near the proximity sensor: {@code near} or {@code far}. */
    public static final String SENSORS_PROXIMITY = "Sensors.Proximity";
    /** Barometric pressure and its unit: {@code 101.325 kPa} (location on: pressure is an altimeter). */
    public static final String SENSORS_PRESSURE = "Sensors.Pressure";
    /** Relative humidity: {@code 45.2 %}. */
    public static final String SENSORS_HUMIDITY = "Sensors.Humidity";
    /**
     * Prefix of temperatures: {@code Sensors.Temperature.<n>} as {@code 45.0 degC} and {@code .<n>.Sensor},
     * which chip and input it is ({@code hwmon coretemp Package id 0}, {@code iio bme280}).
     */
    public static final String SENSORS_TEMPERATURE = "Sensors.Temperature.";
    /** Suffix naming the device a reading came from, e.g. {@code Sensors.Light.Sensor} = {@code iio:device1 als}. */
    public static final String SENSORS_SENSOR_SUFFIX = ".Sensor";

    /** Number of Bluetooth adapters recorded (radios on). */
    public static final String BLUETOOTH_ADAPTER_COUNT = "Bluetooth.Adapter.Count";
    /** Prefix of per-adapter fields: {@code Bluetooth.Adapter.<n>.Address} (hashed), {@code .Powered}, {@code .Discovering}. */
    public static final String BLUETOOTH_ADAPTER = "Bluetooth.Adapter.";
    /** Number of nearby Bluetooth devices recorded. */
    public static final String BLUETOOTH_DEVICE_COUNT = "Bluetooth.Device.Count";
    /**
     * Prefix of per-device fields: {@code Bluetooth.Device.<n>.Address} (hashed), {@code .Name}, {@code .Class}
     * (hex), {@code .RSSI} (dBm), {@code .Connected}, {@code .Paired}.
     */
    public static final String BLUETOOTH_DEVICE = "Bluetooth.Device.";

    /** Number of cells recorded (location on). */
    public static final String CELL_COUNT = "Cell.Count";
    /**
     * Prefix of per-cell fields: {@code Cell.<n>.Serving} ({@code true} for the cell in use),
     * {@code .Technology}, {@code .MCC}, {@code .MNC}, {@code .LAC} or {@code .TAC} and {@code .CellId} (decimal,
     * as OpenCelliD lists them), {@code .PhysicalCellId} (a neighbour's, decimal), {@code .PrimaryScramblingCode} (a UMTS neighbour's, decimal), {@code .Signal}, {@code .Modem} ({@code ModemManager} or {@code oFono}).
     */
    public static final String CELL = "Cell.";

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
