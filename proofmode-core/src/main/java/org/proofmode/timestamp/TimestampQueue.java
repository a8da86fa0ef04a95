// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.util.Hex;
import org.proofmode.util.QueueFolder;

/**
 * Timestamp requests that wait for their service, one small JSON file per proof in
 * {@code PROOFMODE_HOME/timestamp-queue/<h>.json}, written atomically, so the queue survives a crash
 * or a restart. Failed attempts are retried with exponential backoff: 1 minute, doubling, at most 1 hour.
 */
public final class TimestampQueue {
    /** The folder under the home. */
    public static final String FOLDER = "timestamp-queue";
    /** The first wait after a failure. */
    public static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);
    /** The longest wait. */
    public static final Duration MAX_BACKOFF = Duration.ofHours(1);

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final int FORMAT_VERSION = 1;

    private final QueueFolder files;

    /** Opens (without creating) a queue folder. */
    public TimestampQueue(Path dir) {
        this.files = new QueueFolder(dir, "the timestamp queue");
    }

    /** The queue's folder. */
    public Path folder() {
        return files.dir();
    }

    /** The wait before the next attempt after {@code attempts} failures. */
    public static Duration backoff(int attempts) {
        if (attempts <= 0) {
            return Duration.ZERO;
        }
        int shift = Math.min(attempts - 1, 16);
        Duration d = FIRST_BACKOFF.multipliedBy(1L << shift);
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }

    /**
     * Queues a request, or widens the one already queued for this proof.
     *
     * @return the request as stored
     */
    public synchronized QueuedStamp add(String sha256, Path proofFolder, List<URI> tsaUrls, List<URI> calendars,
            Instant now, String error) {
        Optional<QueuedStamp> old = get(sha256);
        LinkedHashSet<URI> tsa = new LinkedHashSet<>(old.map(QueuedStamp::tsaUrls).orElse(List.of()));
        tsa.addAll(tsaUrls);
        LinkedHashSet<URI> cal = new LinkedHashSet<>(old.map(QueuedStamp::calendars).orElse(List.of()));
        cal.addAll(calendars);
        int attempts = old.map(QueuedStamp::attempts).orElse(0) + 1;
        QueuedStamp q = new QueuedStamp(sha256.toLowerCase(Locale.ROOT), proofFolder.toAbsolutePath(), List.copyOf(tsa),
                List.copyOf(cal), attempts, old.map(QueuedStamp::queuedAt).orElse(now), now.plus(backoff(attempts)),
                Optional.of(error));
        put(q);
        return q;
    }

    /** Every queued request, sorted by hash; unreadable files are reported as {@link Failure#BAD_DATA}. */
    public List<QueuedStamp> list() {
        List<QueuedStamp> out = new ArrayList<>();
        for (Path p : files.files(n -> n.endsWith(".json") && Hex.isSha256(n.substring(0, n.length() - 5)))) {
            out.add(read(p));
        }
        return out;
    }

    /** The queued request of a proof, if any. */
    public Optional<QueuedStamp> get(String sha256) {
        Path p = files.dir().resolve(name(sha256));
        return Files.isRegularFile(p) ? Optional.of(read(p)) : Optional.empty();
    }

    /** Stores a request, replacing the proof's previous one. */
    public void put(QueuedStamp q) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("formatVersion", FORMAT_VERSION);
        n.put("sha256", q.sha256());
        n.put("proofFolder", q.proofFolder().toString());
        q.tsaUrls().forEach(u -> n.withArray("tsaUrls").add(u.toString()));
        q.calendars().forEach(u -> n.withArray("calendars").add(u.toString()));
        n.put("attempts", q.attempts());
        n.put("queuedAt", q.queuedAt().toString());
        n.put("nextTry", q.nextTry().toString());
        q.lastError().ifPresent(e -> n.put("lastError", e));
        try {
            files.write(name(q.sha256()), MAPPER.writeValueAsBytes(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes a proof's request (done, or its proof is gone). */
    public void remove(String sha256) {
        files.remove(name(sha256));
    }

    private static String name(String sha256) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        return sha256.toLowerCase(Locale.ROOT) + ".json";
    }

    private static QueuedStamp read(Path p) {
        try {
            JsonNode n = MAPPER.readTree(Files.readAllBytes(p));
            List<URI> tsa = new ArrayList<>();
            n.path("tsaUrls").forEach(u -> tsa.add(URI.create(u.asText())));
            List<URI> cal = new ArrayList<>();
            n.path("calendars").forEach(u -> cal.add(URI.create(u.asText())));
            return new QueuedStamp(n.path("sha256").asText(), Path.of(n.path("proofFolder").asText()), tsa, cal,
                    n.path("attempts").asInt(), Instant.parse(n.path("queuedAt").asText()), Instant.parse(n.path("nextTry").asText()),
                    n.hasNonNull("lastError") ? Optional.of(n.get("lastError").asText()) : Optional.empty());
        } catch (IOException | RuntimeException e) {
            throw QueueFolder.unreadable(p, "queued timestamp request", e);
        }
    }
}
