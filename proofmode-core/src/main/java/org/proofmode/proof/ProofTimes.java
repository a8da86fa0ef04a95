// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Times in proof records. We write ISO-8601 in UTC with a {@code Z}; we read that and what the app has
 * written over the years: epoch seconds or milliseconds, and prose such as
 * {@code Wednesday, November 30, 2022 9:49:08 a.m. Eastern Standard Time} (with or without commas).
 */
public final class ProofTimes {
    private static final Pattern DIGITS = Pattern.compile("\\d{9,13}");
    private static final List<DateTimeFormatter> PROSE = List.of(
            prose("EEEE MMMM d yyyy h:mm:ss a zzzz"),
            prose("EEEE MMMM d yyyy H:mm:ss zzzz"),
            prose("EEEE d MMMM yyyy h:mm:ss a zzzz"),
            prose("EEEE d MMMM yyyy H:mm:ss zzzz"),
            prose("MMMM d yyyy h:mm:ss a zzzz"),
            prose("EEE MMM d HH:mm:ss zzz yyyy"));

    private ProofTimes() {}

    /** Formats an instant as ISO-8601 UTC with second precision, e.g. {@code 2026-12-03T07:20:00Z}. */
    public static String format(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * Reads a time in any of the forms proofs use.
     *
     * @return the instant, or empty if the text is blank or not a time we recognise
     */
    public static Optional<Instant> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.trim();
        try {
            return Optional.of(Instant.parse(t));
        } catch (DateTimeParseException e) {
            // not ISO; try the other forms
        }
        try {
            return Optional.of(ZonedDateTime.parse(t).toInstant());
        } catch (DateTimeParseException e) {
            // not ISO with an offset
        }
        if (DIGITS.matcher(t).matches()) {
            long n = Long.parseLong(t);
            return Optional.of(t.length() >= 12 ? Instant.ofEpochMilli(n) : Instant.ofEpochSecond(n));
        }
        String normal = t.replace(",", " ")
                .replaceAll("(?i)a\\.\\s?m\\.", "AM")
                .replaceAll("(?i)p\\.\\s?m\\.", "PM")
                .replaceAll("\\s+", " ")
                .trim();
        for (DateTimeFormatter f : PROSE) {
            try {
                return Optional.of(ZonedDateTime.parse(normal, f).toInstant());
            } catch (DateTimeParseException e) {
                // next form
            }
        }
        return Optional.empty();
    }

    private static DateTimeFormatter prose(String pattern) {
        return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(pattern).toFormatter(Locale.US);
    }
}
