// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofTimes;

/**
 * Plausibility checks of a proof's recorded context. They never make a proof invalid: a signed record
 * says what the device knew, and these warnings tell a reader where that knowledge looks wrong.
 *
 * <ul>
 *   <li>{@link CheckCodes#CONTEXT_CAPTURE_AFTER_PROOF}: the media says it was made after the proof was;
 *   <li>{@link CheckCodes#CONTEXT_LOCATION_STALE}: the position fix is older than the media, so it may
 *       not be where the media was made;
 *   <li>{@link CheckCodes#CONTEXT_CLOCK_UNSYNCHRONISED}: the device's clock was not synchronised, so
 *       every time in the proof rests on an unchecked clock.
 * </ul>
 */
final class ContextChecks {
    /** Clocks of cameras and computers disagree by this much without anything being wrong. */
    static final Duration CLOCK_TOLERANCE = Duration.ofMinutes(2);
    /** A fix this much older than the media is stale. */
    static final Duration FIX_TOLERANCE = Duration.ofMinutes(5);
    /** The widest offset from UTC of any time zone: bounds a local time whose zone is unknown. */
    static final Duration MAX_ZONE_OFFSET = Duration.ofHours(14);

    private static final DateTimeFormatter EXIF = DateTimeFormatter.ofPattern("yyyy:MM:dd HH:mm:ss");

    private ContextChecks() {}

    static List<Check> of(Map<String, String> r) {
        List<Check> checks = new ArrayList<>();
        Optional<Instant> proof = time(r, ProofFields.PROOF_GENERATED);
        Optional<Instant> capture = captureTime(r);
        if (proof.isPresent()) {
            Optional<LocalDateTime> local = exifLocal(r);
            boolean after = capture.isPresent() ? capture.get().isAfter(proof.get().plus(CLOCK_TOLERANCE))
                    : local.isPresent() && local.get().toInstant(ZoneOffset.UTC).minus(MAX_ZONE_OFFSET).isAfter(proof.get().plus(CLOCK_TOLERANCE));
            if (after) {
                checks.add(new Check(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF, Status.WARN, captureField(r),
                        "the media says it was made at " + captureText(r, capture) + ", after the proof ("
                                + ProofTimes.format(proof.get()) + "): one of the clocks is wrong, or the media was changed"));
            }
        }
        Optional<Instant> fix = time(r, ProofFields.LOCATION_TIME);
        Optional<Instant> media = capture.or(() -> time(r, ProofFields.FILE_MODIFIED));
        if (fix.isPresent() && media.isPresent() && fix.get().isBefore(media.get().minus(FIX_TOLERANCE))) {
            checks.add(new Check(CheckCodes.CONTEXT_LOCATION_STALE, Status.WARN, ProofFields.LOCATION_TIME,
                    "the position fix (" + ProofTimes.format(fix.get()) + ") is older than the media ("
                            + ProofTimes.format(media.get()) + "): it may not be where the media was made"));
        }
        if ("false".equalsIgnoreCase(r.getOrDefault(ContextFields.DEVICE_CLOCK_SYNCHRONISED, "").strip())) {
            checks.add(new Check(CheckCodes.CONTEXT_CLOCK_UNSYNCHRONISED, Status.WARN, ContextFields.DEVICE_CLOCK_SYNCHRONISED,
                    "the device's clock was not synchronised to a time server: the proof's times rest on it alone"));
        }
        return checks;
    }

    /** The media's capture time when it is known as an instant: EXIF with its offset, or the container's UTC time. */
    static Optional<Instant> captureTime(Map<String, String> r) {
        Optional<LocalDateTime> local = exifLocal(r);
        String offset = r.getOrDefault(ContextFields.EXIF_OFFSET_TIME_ORIGINAL, "").strip();
        if (local.isPresent() && offset.matches("[+-]\\d{2}:\\d{2}")) {
            try {
                return Optional.of(local.get().toInstant(ZoneOffset.of(offset)));
            } catch (DateTimeException e) {
                return Optional.empty();
            }
        }
        if (local.isPresent()) {
            return Optional.empty();
        }
        return time(r, ContextFields.VIDEO_CREATION_TIME);
    }

    static Optional<LocalDateTime> exifLocal(Map<String, String> r) {
        String v = r.getOrDefault(ContextFields.EXIF_DATE_TIME_ORIGINAL, "").strip();
        try {
            return v.length() >= 19 ? Optional.of(LocalDateTime.parse(v.substring(0, 19), EXIF)) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String captureField(Map<String, String> r) {
        return r.containsKey(ContextFields.EXIF_DATE_TIME_ORIGINAL) ? ContextFields.EXIF_DATE_TIME_ORIGINAL : ContextFields.VIDEO_CREATION_TIME;
    }

    private static String captureText(Map<String, String> r, Optional<Instant> capture) {
        return capture.map(ProofTimes::format).orElseGet(() -> r.get(ContextFields.EXIF_DATE_TIME_ORIGINAL) + " (local time, zone unknown)");
    }

    private static Optional<Instant> time(Map<String, String> r, String field) {
        return Optional.ofNullable(r.get(field)).flatMap(ProofTimes::parse);
    }
}
