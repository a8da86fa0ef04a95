// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;

/**
 * The metadata sources a proof runs under given settings, in their order: the file, the device in broad
 * strokes (the app's fields) and in detail, the media's own metadata, image, frame and sample hashes, the
 * environment's integrity, then sensors, network, radios and location (with cell towers) when they are on.
 * Location comes last because it falls back to the media's GPS tags.
 */
public final class ContextSources {
    /** How long gpsd is given to report a fix. */
    public static final Duration GPSD_TIMEOUT = Duration.ofMillis(1500);

    private ContextSources() {}

    /**
     * Opens the system bus connection the D-Bus sources share (clock trust, sensors, radios, cells) on a
     * thread of its own, before the command knows which sources it runs: a fresh process then spends the
     * few hundred milliseconds of connecting while it loads the rest, not at its first proof. Nothing is
     * asked of any service; the connection closes by itself if no source uses it.
     */
    public static void warmSystemBus() {
        SystemBus.system().warm();
    }

    /**
     * The sources for one run.
     *
     * @param home the ProofMode home (where the identifier secret lives)
     * @param settings what to record
     * @param manualLocation a position given for this run ({@code --location}); used only when location is on
     */
    public static List<MetadataSource> of(Path home, Settings settings, Optional<Fix> manualLocation) {
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(manualLocation, "manualLocation");
        IdentifierHasher hasher = new IdentifierHasher(home);
        Optional<IdentifierHasher> ids = settings.deviceIds() ? Optional.of(hasher) : Optional.empty();
        List<MetadataSource> sources = new ArrayList<>();
        sources.add(new FileSource(settings.fullFilePath()));
        sources.add(new DeviceSource());
        sources.add(new DeviceContextSource(ids));
        sources.add(new MediaMetadataSource(settings.location(), ids));
        if (settings.imageHashes()) {
            sources.add(new ImageHashSource());
        }
        if (settings.frameHashes()) {
            sources.add(new StreamHashSource());
        }
        addNetworkAndLocation(sources, hasher, settings, manualLocation);
        return List.copyOf(sources);
    }

    private static void addNetworkAndLocation(List<MetadataSource> sources, IdentifierHasher hasher, Settings settings,
            Optional<Fix> manualLocation) {
        sources.add(new EnvironmentSource());
        if (settings.sensors()) {
            sources.add(new SensorSource(settings.location()));
        }
        if (settings.network()) {
            sources.add(new NetworkSource(hasher));
        }
        if (settings.radios()) {
            sources.add(new BluetoothSource(hasher));
        }
        if (settings.location()) {
            sources.add(new CellSource());
            sources.add(new LocationSource(manualLocation,
                    Optional.of(new GpsdClient(settings.gpsdHost(), settings.gpsdPort(), GPSD_TIMEOUT))));
        }
    }

    /**
     * The sources that describe the device and its surroundings at a moment, without reading the media:
     * device (broad and detailed), the environment's integrity, and sensors, network, radios and location
     * (given or from gpsd, with cell towers) when they are on. A watcher
     * runs them when it first sees a file, so that the context is the one of its arrival.
     *
     * @param home the ProofMode home
     * @param settings what to record
     * @param manualLocation a position given for this run; used only when location is on
     */
    public static List<MetadataSource> surroundings(Path home, Settings settings, Optional<Fix> manualLocation) {
        Objects.requireNonNull(manualLocation, "manualLocation");
        IdentifierHasher hasher = new IdentifierHasher(Objects.requireNonNull(home, "home"));
        List<MetadataSource> sources = new ArrayList<>();
        sources.add(new DeviceSource());
        sources.add(new DeviceContextSource(settings.deviceIds() ? Optional.of(hasher) : Optional.empty()));
        addNetworkAndLocation(sources, hasher, settings, manualLocation);
        return List.copyOf(sources);
    }

    /**
     * The sources that read the media file itself: its facts, its metadata, image hashes, and, when
     * location is on and the record has no position yet, the media's own GPS tags. They complete a record
     * whose surroundings were recorded earlier ({@link #surroundings}).
     *
     * @param home the ProofMode home
     * @param settings what to record
     */
    public static List<MetadataSource> media(Path home, Settings settings) {
        IdentifierHasher hasher = new IdentifierHasher(Objects.requireNonNull(home, "home"));
        List<MetadataSource> sources = new ArrayList<>();
        sources.add(new FileSource(settings.fullFilePath()));
        sources.add(new MediaMetadataSource(settings.location(), settings.deviceIds() ? Optional.of(hasher) : Optional.empty()));
        if (settings.imageHashes()) {
            sources.add(new ImageHashSource());
        }
        if (settings.frameHashes()) {
            sources.add(new StreamHashSource());
        }
        if (settings.location()) {
            MetadataSource fromMedia = new LocationSource(Optional.empty(), Optional.empty());
            sources.add(new MetadataSource() {
                @Override
                public String name() {
                    return fromMedia.name();
                }

                @Override
                public void contribute(MediaFile m, ProofRecord.Builder r) throws Exception {
                    if (!r.has(ProofFields.LOCATION_LATITUDE)) {
                        fromMedia.contribute(m, r);
                    }
                }
            });
        }
        return List.copyOf(sources);
    }

    /**
     * The sources of a redacted copy's proof, which travels with the copy: the file, the device in broad
     * strokes, the copy's own metadata (with its GPS tags only when they were kept), and image hashes when
     * they are on. Never the location, the network, device details or identifiers, whatever the settings
     * say: a redaction exists to hide who and where.
     *
     * @param settings what to record (only {@code image-hashes} is read)
     * @param gpsKept whether the copy kept its GPS tags ({@code --strip device} or {@code none})
     */
    public static List<MetadataSource> forRedactedCopy(Settings settings, boolean gpsKept) {
        List<MetadataSource> sources = new ArrayList<>();
        sources.add(new FileSource());
        sources.add(new DeviceSource());
        sources.add(new MediaMetadataSource(gpsKept, Optional.empty()));
        if (settings.imageHashes()) {
            sources.add(new ImageHashSource());
        }
        return List.copyOf(sources);
    }
}
