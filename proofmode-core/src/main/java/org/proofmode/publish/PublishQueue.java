// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.proofmode.failure.Failure;
import org.proofmode.timestamp.TimestampQueue;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.util.QueueFolder;

/**
 * What could not be published yet: one file per proof and what is sent of it,
 * {@code PROOFMODE_HOME/publish-queue/<h>.<with-media|proof-only|notarize-only>.json},
 * written atomically and owner-only, so the queue survives a crash or a restart. Failed attempts are
 * retried with the timestamp queue's backoff ({@link TimestampQueue#backoff}): 1 minute, doubling, at
 * most 1 hour. An item names a proof in the store; the bundle is made again when it is sent. In a home
 * whose store is encrypted each item is sealed to the store's recipient under a random name
 * ({@link QueueFolder}).
 */
public final class PublishQueue {
    /** The folder under the home. */
    public static final String FOLDER = Home.PUBLISH_QUEUE.fileName();

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final int FORMAT_VERSION = 1;

    private final QueueFolder files;

    /** Opens (without creating) a queue folder of plain items. */
    public PublishQueue(Path dir) {
        this(dir, Optional.empty());
    }

    /** Opens (without creating) a queue folder whose items are sealed, if {@code sealing} is given. */
    public PublishQueue(Path dir, Optional<QueueFolder.Sealing> sealing) {
        this.files = new QueueFolder(dir, "the publish queue", sealing);
    }

    /** Whether the items can be read: always when plain, with the store's identity when sealed. */
    public boolean canRead() {
        return files.canRead();
    }

    /** How many items wait, counted without opening them. */
    public int count() {
        return files.count(PublishQueue::isPlainName);
    }

    /** The queue's folder. */
    public Path folder() {
        return files.dir();
    }

    /**
     * Queues an item, or counts one more failed attempt of the one already queued for this proof and what.
     *
     * @return the item as stored
     */
    public synchronized QueuedPublish add(String sha256, Publisher.What what, URI server, Optional<Http.Socks> proxy, Instant now,
            String error) {
        Optional<QueuedPublish> old = get(sha256, what);
        int attempts = old.map(QueuedPublish::attempts).orElse(0) + 1;
        // once queued to go through a proxy, an item keeps it
        Optional<Http.Socks> route = proxy.or(() -> old.flatMap(QueuedPublish::proxy));
        QueuedPublish q = new QueuedPublish(sha256.toLowerCase(Locale.ROOT), what, server, attempts,
                old.map(QueuedPublish::queuedAt).orElse(now), now.plus(TimestampQueue.backoff(attempts)), Optional.of(error), route);
        put(q);
        return q;
    }

    /**
     * Every queued item, sorted by hash and what is sent; an unreadable file is {@link Failure#BAD_DATA}, a
     * sealed one without the identity {@link Failure#KEY_LOCKED}.
     */
    public List<QueuedPublish> list() {
        Map<String, QueuedPublish> out = new TreeMap<>();
        for (QueueFolder.Item i : files.items(PublishQueue::isPlainName)) {
            QueuedPublish q = read(i.file(), i.content());
            out.merge(name(q.sha256(), q.what()), q, PublishQueue::merge);
        }
        return new ArrayList<>(out.values());
    }

    /** The queued item of a proof and what is sent of it, if any (none is known of a sealed queue without the identity). */
    public Optional<QueuedPublish> get(String sha256, Publisher.What what) {
        String name = name(sha256, what);
        return files.get(name, name, PublishQueue::keyOf).stream().map(b -> read(files.dir().resolve(name), b))
                .reduce(PublishQueue::merge);
    }

    /** One item of two queued for the same: the one tried more often, from the first time either was queued. */
    private static QueuedPublish merge(QueuedPublish a, QueuedPublish b) {
        QueuedPublish more = b.attempts() > a.attempts() ? b : a;
        return new QueuedPublish(more.sha256(), more.what(), more.server(), more.attempts(),
                a.queuedAt().isBefore(b.queuedAt()) ? a.queuedAt() : b.queuedAt(), more.nextTry(), more.lastError(),
                more.proxy().or(a::proxy).or(b::proxy));
    }

    private static boolean isPlainName(String n) {
        return n.endsWith(".json") && n.indexOf('.') == 64 && Hex.isSha256(n.substring(0, 64));
    }

    private static String keyOf(byte[] content) {
        try {
            JsonNode n = MAPPER.readTree(content);
            return name(n.path("sha256").asText(), Publisher.What.parse(n.path("what").asText()));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Stores an item, replacing the proof's previous one. */
    public void put(QueuedPublish q) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("formatVersion", FORMAT_VERSION);
        n.put("sha256", q.sha256());
        n.put("what", q.what().spelled());
        n.put("server", q.server().toString());
        n.put("attempts", q.attempts());
        n.put("queuedAt", q.queuedAt().toString());
        n.put("nextTry", q.nextTry().toString());
        q.lastError().ifPresent(e -> n.put("lastError", e));
        q.proxy().ifPresent(p -> n.put("proxy", p.url()));
        try {
            String name = name(q.sha256(), q.what());
            files.put(name, MAPPER.writeValueAsBytes(n), name, PublishQueue::keyOf);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes an item (sent, or given up). */
    public void remove(String sha256, Publisher.What what) {
        String name = name(sha256, what);
        files.remove(name, name, PublishQueue::keyOf);
    }

    private static String name(String sha256, Publisher.What what) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        return sha256.toLowerCase(Locale.ROOT) + "." + what.spelled() + ".json";
    }

    private static QueuedPublish read(Path p, byte[] content) {
        try {
            JsonNode n = MAPPER.readTree(content);
            return new QueuedPublish(n.path("sha256").asText(), Publisher.What.parse(n.path("what").asText()),
                    URI.create(n.path("server").asText()), n.path("attempts").asInt(), Instant.parse(n.path("queuedAt").asText()),
                    Instant.parse(n.path("nextTry").asText()),
                    n.hasNonNull("lastError") ? Optional.of(n.get("lastError").asText()) : Optional.empty(),
                    n.hasNonNull("proxy") ? Optional.of(Http.Socks.parse(n.get("proxy").asText())) : Optional.empty());
        } catch (IOException | RuntimeException e) {
            throw QueueFolder.unreadable(p, "queued publish item", e);
        }
    }
}
