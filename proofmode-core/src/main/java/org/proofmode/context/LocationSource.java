// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/**
 * Where the device was: a position given with {@code --location}, else gpsd's current fix, else the
 * media's own GPS tags (recorded by {@link MediaMetadataSource} before this source runs). Adds the app's
 * {@code Location.*} fields and {@code Location.Age}; when gpsd cannot be reached or has no fix, says so
 * in {@code Warning.Location}.
 *
 * <p>gpsd is asked at most once per {@value #CACHE_SECONDS} seconds, so proving a folder does not wait
 * for gpsd once per file.
 */
public final class LocationSource implements MetadataSource {
    static final int CACHE_SECONDS = 10;

    private final Optional<Fix> manual;
    private final Optional<GpsdClient> gpsd;
    private Polled polled;

    private record Polled(long at, Optional<Fix> fix, Optional<String> problem) {}

    /**
     * A location source.
     *
     * @param manual a position given by the person proving; when present gpsd is not asked
     * @param gpsd the daemon to ask, if any
     */
    public LocationSource(Optional<Fix> manual, Optional<GpsdClient> gpsd) {
        this.manual = Objects.requireNonNull(manual, "manual");
        this.gpsd = Objects.requireNonNull(gpsd, "gpsd");
    }

    @Override
    public String name() {
        return "Location";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        Optional<Fix> fix = manual;
        if (fix.isEmpty() && gpsd.isPresent()) {
            Polled p = poll();
            fix = p.fix();
            p.problem().ifPresent(m -> record.warn(name(), m));
        }
        if (fix.isEmpty()) {
            fix = fromMedia(record);
        }
        fix.ifPresent(f -> put(f, media.proofTime(), record));
    }

    private synchronized Polled poll() {
        long now = System.nanoTime();
        if (polled != null && now - polled.at() < Duration.ofSeconds(CACHE_SECONDS).toNanos()) {
            return polled;
        }
        GpsdClient c = gpsd.orElseThrow();
        try {
            Optional<Fix> f = c.poll();
            polled = new Polled(now, f, f.isPresent() ? Optional.empty()
                    : Optional.of("gpsd at " + c.address() + " had no position fix in time"));
        } catch (IOException e) {
            polled = new Polled(now, Optional.empty(), Optional.of("gpsd not reachable at " + c.address() + " ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")"));
        }
        return polled;
    }

    private static Optional<Fix> fromMedia(ProofRecord.Builder r) {
        for (String[] names : new String[][] {
            {ContextFields.EXIF_GPS_LATITUDE, ContextFields.EXIF_GPS_LONGITUDE, ContextFields.EXIF_GPS_ALTITUDE, ContextFields.EXIF_GPS_DATE_TIME},
            {ContextFields.VIDEO_GPS_LATITUDE, ContextFields.VIDEO_GPS_LONGITUDE, "", ContextFields.VIDEO_CREATION_TIME}}) {
            Optional<String> lat = r.get(names[0]);
            Optional<String> lon = r.get(names[1]);
            if (lat.isPresent() && lon.isPresent()) {
                try {
                    OptionalDouble alt = r.get(names[2]).map(a -> OptionalDouble.of(Double.parseDouble(a))).orElse(OptionalDouble.empty());
                    return Optional.of(new Fix(Double.parseDouble(lat.get()), Double.parseDouble(lon.get()), OptionalDouble.empty(),
                            alt, r.get(names[3]).flatMap(ProofTimes::parse), Fix.Provider.MEDIA));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static void put(Fix f, Instant proofTime, ProofRecord.Builder r) {
        r.put(ProofFields.LOCATION_LATITUDE, Fix.decimal(f.latitude()));
        r.put(ProofFields.LOCATION_LONGITUDE, Fix.decimal(f.longitude()));
        f.altitude().ifPresent(a -> r.put(ContextFields.LOCATION_ALTITUDE, Fix.decimal(a)));
        f.accuracy().ifPresent(a -> r.put(ProofFields.LOCATION_ACCURACY, Fix.decimal(a)));
        r.put(ProofFields.LOCATION_PROVIDER, f.provider().recorded());
        f.time().ifPresent(t -> {
            r.put(ProofFields.LOCATION_TIME, ProofTimes.format(t));
            r.put(ContextFields.LOCATION_AGE, Long.toString(Duration.between(t, proofTime).toSeconds()));
        });
    }
}
