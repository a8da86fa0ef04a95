// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A position fix: where the device (or the camera) was, how sure, and when.
 *
 * @param latitude decimal degrees, -90 to 90
 * @param longitude decimal degrees, -180 to 180
 * @param accuracy horizontal accuracy in metres, if known
 * @param altitude metres above mean sea level, if known
 * @param time when the fix was taken, if known
 * @param provider where it came from
 */
public record Fix(double latitude, double longitude, OptionalDouble accuracy, OptionalDouble altitude,
        Optional<Instant> time, Provider provider) {
    /** Where a fix came from; the names are recorded as {@code Location.Provider}. */
    public enum Provider {
        /** A GPS receiver, through the gpsd daemon. */
        GPSD("gpsd"),
        /** Given by the person proving, with {@code --location}. */
        MANUAL("manual"),
        /** The media's own GPS tags (EXIF or QuickTime). */
        MEDIA("media");

        private final String recorded;

        Provider(String recorded) {
            this.recorded = recorded;
        }

        /** The value recorded in {@code Location.Provider}. */
        public String recorded() {
            return recorded;
        }
    }

    /** Validates the fields. */
    public Fix {
        if (!(latitude >= -90 && latitude <= 90)) {
            throw new IllegalArgumentException("latitude " + latitude + " is not between -90 and 90");
        }
        if (!(longitude >= -180 && longitude <= 180)) {
            throw new IllegalArgumentException("longitude " + longitude + " is not between -180 and 180");
        }
        Objects.requireNonNull(accuracy, "accuracy");
        accuracy.ifPresent(a -> {
            if (!(a >= 0) || Double.isInfinite(a)) {
                throw new IllegalArgumentException("accuracy " + a + " is not a distance in metres");
            }
        });
        Objects.requireNonNull(altitude, "altitude");
        altitude.ifPresent(a -> {
            if (!Double.isFinite(a)) {
                throw new IllegalArgumentException("altitude is not a number");
            }
        });
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(provider, "provider");
    }

    /**
     * Reads {@code LAT,LON[,ACCURACY]} as given to {@code --location}: decimal degrees and metres.
     *
     * @throws IllegalArgumentException if the text is not of that form or out of range
     */
    public static Fix parse(String text) {
        String[] parts = Objects.requireNonNull(text, "text").split(",", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException("expected LAT,LON or LAT,LON,ACCURACY in decimal degrees and metres, got '" + text + "'");
        }
        try {
            double lat = Double.parseDouble(parts[0].strip());
            double lon = Double.parseDouble(parts[1].strip());
            OptionalDouble acc = parts.length == 3 ? OptionalDouble.of(Double.parseDouble(parts[2].strip())) : OptionalDouble.empty();
            return new Fix(lat, lon, acc, OptionalDouble.empty(), Optional.empty(), Provider.MANUAL);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected LAT,LON[,ACCURACY] as decimal numbers, got '" + text + "'", e);
        }
    }

    /** Formats a coordinate or distance without exponent and with at most 7 decimals (about 1 cm), rounded half up. */
    static String decimal(double v) {
        if (!Double.isFinite(v)) {
            return String.valueOf(v);
        }
        String s = BigDecimal.valueOf(v).setScale(7, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }
}
