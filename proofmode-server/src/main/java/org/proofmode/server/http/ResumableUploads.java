// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.proofmode.media.Digests;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.service.UploadBounds;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;

/**
 * Resumable uploads of evidence bundles, so that a large video over a flaky link never starts again
 * from zero: the core of the tus protocol (1.0.0: creation, {@code HEAD} for the offset, {@code PATCH}
 * to append from it). {@code POST /api/v1/uploads} with {@code Upload-Length} (and the bundle's
 * {@code Upload-Sha256}) makes an upload; each {@code PATCH /api/v1/uploads/{id}} with
 * {@code Upload-Offset} appends what arrives and flushes it to disk, even when the connection drops
 * mid-way; {@code HEAD} says how many bytes the server holds. When the last byte arrives the bundle is
 * checked against its SHA-256 and taken in exactly as {@code POST /api/v1/evidence} takes it: nothing is
 * stored under an evidence id before it is whole and verified.
 *
 * <p>Uploads in progress are files of this server instance ({@code incoming/resumable/}), kept for a
 * day since their last byte ({@link UploadBounds#kept()}); several instances behind one address need the
 * same upload sent to the same one (sticky routing by path), or resume from zero on another.
 *
 * <p>Each upload in progress holds a file and the disk its {@code Upload-Length} announces, so they are
 * bounded ({@link UploadBounds}): so many per token ({@code 429}), so many and so many announced bytes in
 * all ({@code 507}), each with a {@code Retry-After} of when the soonest of them expires. An upload frees
 * its share when it finishes (taken in or refused), when its bytes fail their SHA-256, or when it expires.
 * Every upload needs a token: there are no uploads of an address alone to bound.
 */
public final class ResumableUploads {
    static final String FOLDER = "resumable";

    private final Path dir;
    private final long maxUpload;
    private final UploadBounds bounds;
    /** The uploads in progress, by id: whose they are and the bytes they announced; guarded by itself. */
    private final Map<String, Held> held = new HashMap<>();
    private final Access access;
    private final EvidenceApi evidence;
    private final SecureRandom random = new SecureRandom();
    private final ConcurrentHashMap<String, ReentrantLock> busy = new ConcurrentHashMap<>();
    private final Object sweeping = new Object();

    /**
     * Serves resumable uploads.
     *
     * @param incoming the server's folder for uploads in progress
     * @param maxUpload most bytes of one bundle
     * @param bounds most uploads in progress, per token and in all, the bytes they may announce, their expiry
     * @param access who may upload
     * @param evidence what takes a finished bundle in
     */
    public ResumableUploads(Path incoming, long maxUpload, UploadBounds bounds, Access access, EvidenceApi evidence) throws IOException {
        this.dir = AtomicFiles.privateDirectories(incoming.resolve(FOLDER));
        this.maxUpload = maxUpload;
        this.bounds = Objects.requireNonNull(bounds, "bounds");
        this.access = Objects.requireNonNull(access, "access");
        this.evidence = Objects.requireNonNull(evidence, "evidence");
        sweep();
        // The uploads a restarted server still holds count against the bounds as before.
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.endsWith(".json")) {
                    String id = n.substring(0, n.length() - ".json".length());
                    JsonNode meta = EvidenceJson.MAPPER.readTree(Files.readAllBytes(f));
                    synchronized (held) {
                        held.put(id, new Held(meta.path("tokenId").asText(), meta.path("length").asLong()));
                    }
                }
            }
        }
    }

    /** An upload in progress: its token and the bytes it announced. */
    private record Held(String tokenId, long length) {
    }

    /** Drops the uploads that received nothing for {@link UploadBounds#kept()} (a server killed mid-way leaves them too). */
    void sweep() throws IOException {
        FileTime before = FileTime.from(Instant.now().minus(bounds.kept()));
        // One sweep at a time; a file listed and then finished or taken in by another request is passed over.
        synchronized (sweeping) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String n = f.getFileName().toString();
                    try {
                        if (n.endsWith(".part") && Files.getLastModifiedTime(f).compareTo(before) < 0) {
                            discard(n.substring(0, n.length() - ".part".length()));
                        } else if (n.endsWith(".zip") && Files.getLastModifiedTime(f).compareTo(before) < 0) {
                            Files.deleteIfExists(f); // a whole bundle whose intake a killed server never finished
                        }
                    } catch (NoSuchFileException gone) {
                        // finished, refused or expired by another request since the listing
                    }
                }
            }
        }
    }

    /** The folder of uploads in progress. */
    public Path folder() {
        return dir;
    }

    /** {@code POST /api/v1/uploads}: a new upload of {@code Upload-Length} bytes; {@code 201} with its URL. */
    public void create(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        EvidenceStore.Actor actor = access.requireSend(ctx);
        sweep();
        long length = number(ctx.header("Upload-Length"), "Upload-Length");
        if (length < 1) {
            throw new ApiException(ProblemType.BAD_REQUEST, "Upload-Length must be at least 1");
        }
        if (length > maxUpload) {
            throw new ApiException(ProblemType.TOO_LARGE, "the bundle is larger than this server takes (" + maxUpload + " bytes)");
        }
        String sha = ctx.header("Upload-Sha256") == null ? "" : ctx.header("Upload-Sha256").toLowerCase(Locale.ROOT);
        if (!sha.isEmpty() && !Hex.isSha256(sha)) {
            throw new ApiException(ProblemType.BAD_REQUEST, "Upload-Sha256 is not a SHA-256");
        }
        byte[] idBytes = new byte[16];
        random.nextBytes(idBytes);
        String id = HexFormat.of().formatHex(idBytes);
        reserve(ctx, id, actor.tokenId(), length);
        boolean made = false;
        try {
            start(ctx, id, actor, length, sha);
            made = true;
        } finally {
            if (!made) {
                discard(id);
            }
        }
    }

    /**
     * Counts a new upload against the bounds, or refuses it: {@code 429} for a token that holds its most,
     * {@code 507} when the server holds its most uploads or announced bytes.
     */
    private void reserve(Context ctx, String id, String tokenId, long length) {
        synchronized (held) {
            long mine = held.values().stream().filter(h -> h.tokenId().equals(tokenId)).count();
            if (mine >= bounds.perToken()) {
                ctx.header("Retry-After", Long.toString(untilOneExpires(tokenId)));
                throw new ApiException(ProblemType.RATE_LIMITED, "this token has " + mine + " uploads in progress, the most this server"
                        + " allows (" + bounds.perToken() + "): finish one, or wait until one expires after "
                        + bounds.kept().toSeconds() + " s without bytes");
            }
            if (held.size() >= bounds.total()) {
                ctx.header("Retry-After", Long.toString(untilOneExpires(null)));
                throw new ApiException(ProblemType.INSUFFICIENT_STORAGE, "the server holds " + held.size()
                        + " uploads in progress, the most it allows (" + bounds.total() + "); retry later, or send the bundle in one POST");
            }
            long announced = held.values().stream().mapToLong(Held::length).sum();
            if (announced + length > bounds.reservedBytes()) {
                ctx.header("Retry-After", Long.toString(untilOneExpires(null)));
                throw new ApiException(ProblemType.INSUFFICIENT_STORAGE, "the uploads in progress hold " + announced + " of the "
                        + bounds.reservedBytes() + " bytes this server gives them: no room for " + length + " more; retry later");
            }
            held.put(id, new Held(tokenId, length));
        }
    }

    /** Seconds until the soonest upload in progress (of a token, or any with {@code null}) expires; at least 1. */
    private long untilOneExpires(String tokenId) {
        long soonest = bounds.kept().toSeconds();
        for (Map.Entry<String, Held> e : held.entrySet()) {
            if (tokenId != null && !tokenId.equals(e.getValue().tokenId())) {
                continue;
            }
            try {
                Instant last = Files.getLastModifiedTime(part(e.getKey())).toInstant();
                soonest = Math.min(soonest, Duration.between(Instant.now(), last.plus(bounds.kept())).toSeconds());
            } catch (IOException gone) {
                return 1; // it is finishing or expiring right now
            }
        }
        return Math.max(1, soonest);
    }

    private void start(Context ctx, String id, EvidenceStore.Actor actor, long length, String sha) throws IOException {
        ObjectNode meta = EvidenceJson.MAPPER.createObjectNode();
        meta.put("length", length);
        meta.put("sha256", sha);
        meta.put("name", Upload.clean(ctx.queryParam("name"), "upload.zip"));
        meta.put("tokenId", actor.tokenId());
        meta.put("created", Instant.now().toString());
        AtomicFiles.createOwnerOnlyFile(part(id));
        AtomicFiles.write(meta(id), EvidenceJson.MAPPER.writeValueAsBytes(meta), false, true);
        ctx.header("Tus-Resumable", "1.0.0");
        ctx.header("Location", "/api/v1/uploads/" + id);
        ctx.header("Upload-Offset", "0");
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        out.put("id", id);
        out.put("offset", 0);
        out.put("length", length);
        ctx.status(201).contentType("application/json").result(EvidenceJson.MAPPER.writeValueAsString(out) + "\n");
    }

    /** {@code HEAD /api/v1/uploads/{id}}: how many bytes the server holds ({@code Upload-Offset}). */
    public void offset(Context ctx) throws IOException {
        EvidenceStore.Actor actor = access.requireSend(ctx);
        String id = id(ctx);
        JsonNode meta = owned(id, actor);
        ctx.header("Tus-Resumable", "1.0.0");
        ctx.header("Upload-Offset", Long.toString(Files.size(part(id))));
        ctx.header("Upload-Length", meta.path("length").asText());
        ctx.header("Cache-Control", "no-store");
        ctx.status(200);
    }

    /**
     * {@code PATCH /api/v1/uploads/{id}}: appends the body at {@code Upload-Offset}; {@code 204} with the new
     * offset, or, with the last byte, the answer of {@code POST /api/v1/evidence}.
     */
    public void append(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        EvidenceStore.Actor actor = access.requireSend(ctx);
        String id = id(ctx);
        JsonNode meta = owned(id, actor);
        long length = meta.path("length").asLong();
        long at = number(ctx.header("Upload-Offset"), "Upload-Offset");
        ReentrantLock lock = busy.computeIfAbsent(id, k -> new ReentrantLock());
        if (!lock.tryLock()) {
            throw new ApiException(ProblemType.CONFLICT, "another request is appending to this upload; ask its offset (HEAD) and go on from there");
        }
        try {
            Path part = part(id);
            long have = Files.size(part);
            if (at != have) {
                ctx.header("Upload-Offset", Long.toString(have));
                throw new ApiException(ProblemType.CONFLICT, "the server holds " + have + " bytes of this upload, not " + at);
            }
            long now = receive(ctx, part, have, length);
            ctx.header("Tus-Resumable", "1.0.0");
            ctx.header("Upload-Offset", Long.toString(now));
            if (now < length) {
                ctx.status(204);
                return;
            }
            finish(ctx, id, meta, part, actor);
        } finally {
            lock.unlock();
            busy.remove(id, lock);
        }
    }

    /** Appends the body, up to the upload's length; what arrived before a dropped connection is kept, flushed. */
    private static long receive(Context ctx, Path part, long have, long length) throws IOException {
        long room = length - have;
        try (FileChannel out = FileChannel.open(part, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
             InputStream in = ctx.bodyInputStream()) {
            byte[] buf = new byte[1 << 16];
            long got = 0;
            try {
                int n;
                while ((n = in.read(buf)) != -1) {
                    if (got + n > room) {
                        throw new ApiException(ProblemType.TOO_LARGE, "the body goes past the upload's length (" + length + " bytes)");
                    }
                    out.write(ByteBuffer.wrap(buf, 0, n));
                    got += n;
                }
            } finally {
                out.force(true);
            }
            return have + got;
        }
    }

    /** The last byte arrived: the bundle is checked against its SHA-256, then taken in as any other. */
    private void finish(Context ctx, String id, JsonNode meta, Path part, EvidenceStore.Actor actor) throws IOException {
        String sha = Digests.sha256(part);
        String claimed = meta.path("sha256").asText("");
        if (!claimed.isEmpty() && !claimed.equals(sha)) {
            discard(id);
            throw new ApiException(ProblemType.CONFLICT, "the bytes received have SHA-256 " + sha + ", not the " + claimed
                    + " announced: the upload is dropped; send the bundle again");
        }
        Path whole = dir.resolve(id + ".zip");
        Files.move(part, whole);
        try (Upload up = new Upload(whole, sha, Files.size(whole), meta.path("name").asText("upload.zip"))) {
            Files.deleteIfExists(meta(id));
            evidence.intake(ctx, up, actor);
        } finally {
            release(id);
        }
    }

    private void discard(String id) throws IOException {
        try {
            Files.deleteIfExists(part(id));
            Files.deleteIfExists(meta(id));
        } finally {
            release(id);
        }
    }

    /** The upload is no longer in progress: its share of the bounds is free again. */
    private void release(String id) {
        synchronized (held) {
            held.remove(id);
        }
    }

    /** The upload's record, if it is this token's. */
    private JsonNode owned(String id, EvidenceStore.Actor actor) throws IOException {
        Path m = meta(id);
        // another token's upload is answered as one that does not exist
        JsonNode meta = Files.isRegularFile(m) && Files.isRegularFile(part(id)) ? EvidenceJson.MAPPER.readTree(Files.readAllBytes(m)) : null;
        if (meta == null || !actor.tokenId().equals(meta.path("tokenId").asText())) {
            throw new ApiException(ProblemType.NOT_FOUND, "no upload " + id + " (finished, or expired after "
                    + bounds.kept().toSeconds() + " s without bytes)");
        }
        return meta;
    }

    private static String id(Context ctx) {
        String id = ctx.pathParam("id");
        if (!id.matches("[0-9a-f]{32}")) {
            throw new ApiException(ProblemType.NOT_FOUND, "not an upload id");
        }
        return id;
    }

    private static long number(String header, String name) {
        if (header == null || !header.strip().matches("\\d{1,18}")) {
            throw new ApiException(ProblemType.BAD_REQUEST, name + " must be a number of bytes");
        }
        return Long.parseLong(header.strip());
    }

    private Path part(String id) {
        return dir.resolve(id + ".part");
    }

    private Path meta(String id) {
        return dir.resolve(id + ".json");
    }
}
