// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofTimes;

/**
 * A short account of a proof's recorded context for reports: the device, the camera, the capture time,
 * the location, the clock, the environment's integrity and where the key was held, each one line, from
 * whichever fields the record has (ours or the app's). Keys, in this order when present: {@code device},
 * {@code camera}, {@code captureTime}, {@code location}, {@code clockSynchronised}, {@code clock} (where
 * the time came from), {@code environment} (virtual machine, container, tracer, Secure Boot, TPM, JVM
 * agents), {@code keyStorage} (where the signer says its key was held: {@code file}, or
 * {@code pkcs11: MAKER MODEL} for a token).
 */
public final class ContextSummary {
    /** How each key is named for people, in sentence case ({@link #label}). */
    private static final Map<String, String> LABELS = Map.of("device", "Device", "camera", "Camera", "captureTime", "Capture time",
            "location", "Location", "clockSynchronised", "Clock synced", "clock", "Clock", "environment", "Environment",
            "keyStorage", "Key storage");

    /**
     * The words the summary writes inside its values, by name: {@code localTime} is "local time, zone unknown".
     * The JSON and the terminal keep these English words; a report in another language passes its own ({@link #of(Map, UnaryOperator)}).
     */
    public static final Map<String, String> WORDS = Map.ofEntries(Map.entry("localTime", "local time, zone unknown"),
            Map.entry("fix", "fix"), Map.entry("from", "from"), Map.entry("ntp", "NTP"), Map.entry("service", "service"),
            Map.entry("server", "server"), Map.entry("stratum", "stratum"), Map.entry("lastSync", "last sync"),
            Map.entry("offset", "offset (s)"), Map.entry("virtualMachine", "virtual machine"), Map.entry("container", "container"),
            Map.entry("tracer", "tracer"), Map.entry("secureBoot", "Secure Boot"), Map.entry("tpm", "TPM"),
            Map.entry("jvmAgents", "JVM agents"));

    private ContextSummary() {}

    /** A key of {@link #of}'s map as people read it, in sentence case: {@code keyStorage} is "Key storage". */
    public static String label(String key) {
        return LABELS.getOrDefault(key, key);
    }

    /** Summarises a record's fields in English words; fields it lacks are left out. */
    public static Map<String, String> of(Map<String, String> r) {
        return of(r, WORDS::get);
    }

    /**
     * Summarises a record's fields with the words of a language: {@code words} gives each name of {@link #WORDS}
     * in that language. The record's own values are kept as they are.
     */
    public static Map<String, String> of(Map<String, String> r, UnaryOperator<String> words) {
        Map<String, String> s = new LinkedHashMap<>();
        join(r, " ", ContextFields.DEVICE_VENDOR, ContextFields.DEVICE_MODEL)
                .or(() -> join(r, " ", ProofFields.MANUFACTURER, ProofFields.HARDWARE))
                .map(d -> d + join(r, " ", ContextFields.DEVICE_OS_DISTRIBUTION).or(() -> join(r, " ", ProofFields.OS))
                        .map(os -> ", " + os).orElse(""))
                .ifPresent(d -> s.put("device", d));
        join(r, " ", ContextFields.EXIF_MAKE, ContextFields.EXIF_MODEL).or(() -> join(r, " ", "Video.Make", "Video.Model"))
                .ifPresent(c -> s.put("camera", c));
        Optional<String> capture = ContextChecks.captureTime(r).map(ProofTimes::format)
                .or(() -> ContextChecks.exifLocal(r).map(l -> l + " (" + words.apply("localTime") + ")"));
        capture.ifPresent(c -> s.put("captureTime", c));
        String lat = r.get(ProofFields.LOCATION_LATITUDE);
        String lon = r.get(ProofFields.LOCATION_LONGITUDE);
        if (lat != null && lon != null && !lat.isBlank() && !lon.isBlank()) {
            List<String> extra = new ArrayList<>();
            Optional.ofNullable(r.get(ProofFields.LOCATION_ACCURACY)).filter(a -> !a.isBlank()).ifPresent(a -> extra.add("±" + a + " m"));
            Optional.ofNullable(r.get(ProofFields.LOCATION_PROVIDER)).filter(a -> !a.isBlank()).ifPresent(extra::add);
            Optional.ofNullable(r.get(ProofFields.LOCATION_TIME)).flatMap(ProofTimes::parse).ifPresent(t -> extra.add(words.apply("fix") + " " + ProofTimes.format(t)));
            s.put("location", lat.strip() + ", " + lon.strip() + (extra.isEmpty() ? "" : " (" + String.join(", ", extra) + ")"));
        }
        Optional.ofNullable(r.get(ContextFields.DEVICE_CLOCK_SYNCHRONISED)).ifPresent(c -> s.put("clockSynchronised", c));
        labelled(r, words, new String[][] {{ContextFields.DEVICE_CLOCK_SOURCE, "from"}, {ContextFields.DEVICE_CLOCK_NTP, "ntp"},
            {ContextFields.DEVICE_CLOCK_SERVICE, "service"}, {ContextFields.DEVICE_CLOCK_SERVER, "server"},
            {ContextFields.DEVICE_CLOCK_STRATUM, "stratum"}, {ContextFields.DEVICE_CLOCK_LAST_SYNC, "lastSync"},
            {ContextFields.DEVICE_CLOCK_OFFSET, "offset"}}).ifPresent(c -> s.put("clock", c));
        labelled(r, words, new String[][] {{ContextFields.ENVIRONMENT_VIRTUAL_MACHINE, "virtualMachine"},
            {ContextFields.ENVIRONMENT_CONTAINER, "container"}, {ContextFields.ENVIRONMENT_TRACER, "tracer"},
            {ContextFields.ENVIRONMENT_SECURE_BOOT, "secureBoot"}, {ContextFields.ENVIRONMENT_TPM, "tpm"},
            {ContextFields.ENVIRONMENT_JVM_AGENTS, "jvmAgents"}}).ifPresent(e -> s.put("environment", e));
        Optional.ofNullable(r.get(ProofFields.PROOF_KEY_STORAGE)).filter(k -> !k.isBlank()).ifPresent(k -> s.put("keyStorage", k.strip()));
        return Collections.unmodifiableMap(s);
    }

    /** {@code label value} for each field present, comma-separated; labels are names of {@link #WORDS}. */
    private static Optional<String> labelled(Map<String, String> r, UnaryOperator<String> words, String[][] fields) {
        List<String> parts = new ArrayList<>();
        for (String[] f : fields) {
            Optional.ofNullable(r.get(f[0])).filter(v -> !v.isBlank()).ifPresent(v -> parts.add(words.apply(f[1]) + " " + v.strip()));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", parts));
    }

    private static Optional<String> join(Map<String, String> r, String sep, String... fields) {
        List<String> parts = new ArrayList<>();
        for (String f : fields) {
            String v = r.get(f);
            if (v != null && !v.isBlank() && parts.stream().noneMatch(p -> v.strip().startsWith(p))) {
                parts.add(v.strip());
            }
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(sep, parts));
    }
}
