// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.proofmode.failure.Failure;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;
import org.proofmode.util.QueueFolder;

/**
 * Timestamp requests that wait for their service, one small JSON file per proof in
 * {@code PROOFMODE_HOME/timestamp-queue/<h>.json}, written atomically, so the queue survives a crash
 * or a restart. Failed attempts are retried with exponential backoff: 1 minute, doubling, at most 1 hour.
 * In a home whose store is encrypted each request is sealed to the store's recipient under a random name
 * ({@link QueueFolder}): queued without the identity, read (and merged, when one proof was queued twice)
 * with it.
 */
public final class TimestampQueue {
    /** The folder under the home. */
    public static final String FOLDER = Home.TIMESTAMP_QUEUE.fileName();
    /** The first wait after a failure. */
    public static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);
    /** The longest wait. */
    public static final Duration MAX_BACKOFF = Duration.ofHours(1);

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final int FORMAT_VERSION = 1;

    private final QueueFolder files;

    /** Opens (without creating) a queue folder of plain requests. */
    public TimestampQueue(Path dir) {
        this(dir, Optional.empty());
    }

    /** Opens (without creating) a queue folder whose requests are sealed, if {@code sealing} is given. */
    public TimestampQueue(Path dir, Optional<QueueFolder.Sealing> sealing) {
        this.files = new QueueFolder(dir, "the timestamp queue", sealing);
    }

    /** Whether the requests can be read: always when plain, with the store's identity when sealed. */
    public boolean canRead() {
        return files.canRead();
    }

    /** How many requests wait, counted without opening them (a proof queued twice without the identity counts twice). */
    public int count() {
        return files.count(TimestampQueue::isPlainName);
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

    /**
     * Every queued request, sorted by hash; unreadable files are reported as {@link Failure#BAD_DATA}, sealed
     * ones without the identity as {@link Failure#KEY_LOCKED}.
     */
    public List<QueuedStamp> list() {
        Map<String, QueuedStamp> out = new TreeMap<>();
        for (QueueFolder.Item i : files.items(TimestampQueue::isPlainName)) {
            QueuedStamp q = read(i.file(), i.content());
            out.merge(q.sha256(), q, TimestampQueue::merge);
        }
        return new ArrayList<>(out.values());
    }

    /** The queued request of a proof, if any (none is known of a sealed queue without the identity). */
    public Optional<QueuedStamp> get(String sha256) {
        Optional<QueuedStamp> out = Optional.empty();
        for (byte[] b : files.get(name(sha256), sha256.toLowerCase(Locale.ROOT), TimestampQueue::keyOf)) {
            QueuedStamp q = read(files.dir().resolve(name(sha256)), b);
            out = Optional.of(out.map(o -> merge(o, q)).orElse(q));
        }
        return out;
    }

    /** One request of two queued for a proof: every service either asks, from the first time either was queued. */
    private static QueuedStamp merge(QueuedStamp a, QueuedStamp b) {
        LinkedHashSet<URI> tsa = new LinkedHashSet<>(a.tsaUrls());
        tsa.addAll(b.tsaUrls());
        LinkedHashSet<URI> cal = new LinkedHashSet<>(a.calendars());
        cal.addAll(b.calendars());
        QueuedStamp newer = b.queuedAt().isAfter(a.queuedAt()) ? b : a;
        return new QueuedStamp(a.sha256(), newer.proofFolder(), List.copyOf(tsa), List.copyOf(cal), Math.max(a.attempts(), b.attempts()),
                a.queuedAt().isBefore(b.queuedAt()) ? a.queuedAt() : b.queuedAt(), a.nextTry().isBefore(b.nextTry()) ? a.nextTry() : b.nextTry(),
                newer.lastError().or(a::lastError));
    }

    private static boolean isPlainName(String n) {
        return n.endsWith(".json") && Hex.isSha256(n.substring(0, n.length() - 5));
    }

    private static String keyOf(byte[] content) {
        try {
            return MAPPER.readTree(content).path("sha256").asText();
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
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
            files.put(name(q.sha256()), MAPPER.writeValueAsBytes(n), q.sha256(), TimestampQueue::keyOf);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes a proof's request (done, or its proof is gone). */
    public void remove(String sha256) {
        files.remove(name(sha256), sha256.toLowerCase(Locale.ROOT), TimestampQueue::keyOf);
    }

    private static String name(String sha256) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        return sha256.toLowerCase(Locale.ROOT) + ".json";
    }

    private static QueuedStamp read(Path p, byte[] content) {
        try {
            JsonNode n = MAPPER.readTree(content);
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
