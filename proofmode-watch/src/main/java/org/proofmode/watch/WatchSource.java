// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.proofmode.context.MetadataSource;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/**
 * Puts into a proof what the watcher recorded when it first saw the file: the capture context of that
 * moment (device, clock, network, location, from the "surroundings" sources) and the {@code Watch.*}
 * fields below, then {@code Watch.CompleteAt}, when the file was judged complete.
 */
final class WatchSource implements MetadataSource {
    /** When the watcher first saw this content (ISO-8601 UTC). */
    static final String DETECTED_AT = "Watch.DetectedAt";
    /** How: {@code event} (a file-system event) or {@code scan} (a rescan, or catching up after a restart). */
    static final String DETECTED_BY = "Watch.DetectedBy";
    /** The file's size then, in bytes. */
    static final String SIZE_AT_DETECTION = "Watch.SizeAtDetection";
    /** The file's modification time then. */
    static final String MODIFIED_AT_DETECTION = "Watch.ModifiedAtDetection";
    /** When the file was judged complete (size and time stable, no writer) and proving began. */
    static final String COMPLETE_AT = "Watch.CompleteAt";

    /** What sources of the surroundings are told about a file that may still be being written. */
    private static final MediaType UNKNOWN = new MediaType(MediaKind.IMAGE, "application/octet-stream");

    private final Map<String, String> snapshot;
    private final Instant completeAt;

    WatchSource(Map<String, String> snapshot, Instant completeAt) {
        this.snapshot = Map.copyOf(snapshot);
        this.completeAt = Objects.requireNonNull(completeAt, "completeAt");
    }

    @Override
    public String name() {
        return "Watch";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        new TreeMap<>(snapshot).forEach(record::put);
        record.put(COMPLETE_AT, time(completeAt));
    }

    /**
     * Takes the snapshot of a file just seen: runs the surroundings sources (which must not read the media,
     * only the device and its surroundings) and adds the {@code Watch.*} detection fields.
     */
    static Map<String, String> snapshot(List<MetadataSource> surroundings, Path file, long size, Instant mtime, Instant at,
            String by) {
        ProofRecord.Builder b = ProofRecord.builder();
        MediaFile seen = new MediaFile(file, UNKNOWN, size, at);
        MetadataSource.contributeAll(surroundings, seen, b);
        Map<String, String> out = new LinkedHashMap<>(b.build().fields());
        out.put(DETECTED_AT, time(at));
        out.put(DETECTED_BY, by);
        out.put(SIZE_AT_DETECTION, Long.toString(size));
        out.put(MODIFIED_AT_DETECTION, ProofTimes.format(mtime));
        return out;
    }

    /** ISO-8601 UTC with milliseconds: detection and completion are a fraction of a second apart. */
    static String time(Instant t) {
        return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.MILLIS));
    }
}
