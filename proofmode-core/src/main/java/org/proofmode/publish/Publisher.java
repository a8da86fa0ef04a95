// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Http;
import org.proofmode.util.SafeText;

/**
 * The client of an evidence server's API ({@code proofmode serve}, see docs/http-api.md): sends share
 * bundles ({@code POST /api/v1/evidence}) and notarization texts ({@code POST /api/v1/notarizations}) with
 * an upload token, through whatever proxy its {@link Http} has.
 *
 * <p>What retrying may fix (the server or the proxy unreachable, a timeout, a dropped connection, a 5xx)
 * is {@link Failure#SERVICE_UNREACHABLE}, for the caller to queue; what it cannot (a refused token, a
 * bundle the server will not take) is another failure, said in one line.
 */
public final class Publisher {
    /** Most bytes of a server's answer read. */
    static final int MAX_ANSWER = 4 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What is sent of a proof. */
    public enum What {
        /** The share bundle with the media. */
        WITH_MEDIA,
        /** The share bundle without the media. */
        PROOF_ONLY,
        /** Only the notarization text (the app's "notarize only"): the media's hash, the signer and the time. */
        NOTARIZE_ONLY;

        /** Reads {@code with-media}, {@code proof-only} or {@code notarize-only}. */
        public static What parse(String s) {
            return switch (s) {
                case "with-media" -> WITH_MEDIA;
                case "proof-only" -> PROOF_ONLY;
                case "notarize-only" -> NOTARIZE_ONLY;
                default -> throw new IllegalArgumentException("not a publish mode: " + s);
            };
        }

        /** As written in settings and queue files. */
        public String spelled() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * What the server said.
     *
     * @param permalink the item's page on the server (for a notarization: its lookup)
     * @param created false if the server had the same bytes (or text) already
     */
    public record Published(URI permalink, boolean created) {}

    /** Bundles at least this large go by resumable upload. */
    public static final long RESUMABLE_FROM = 8L << 20;

    private final URI server;
    private final String token;
    private final Http http;
    private final Path uploads;
    private final long resumableFrom;

    /**
     * A client of one server.
     *
     * @param server the server's base URL, such as {@code https://desk.example.org}
     * @param token the upload token ({@code pm_...})
     * @param http how to reach it (timeouts, proxy)
     * @param uploads where the addresses of resumable uploads under way are kept (one small file per bundle)
     * @param resumableFrom bundles at least this large go by resumable upload ({@link #RESUMABLE_FROM})
     */
    public Publisher(URI server, String token, Http http, Path uploads, long resumableFrom) {
        this.server = Objects.requireNonNull(server, "server");
        this.token = Objects.requireNonNull(token, "token");
        this.http = Objects.requireNonNull(http, "http");
        this.uploads = Objects.requireNonNull(uploads, "uploads");
        this.resumableFrom = resumableFrom;
    }

    /** The server's base URL. */
    public URI server() {
        return server;
    }

    /** The SOCKS5 proxy every connection goes through, if any. */
    public Optional<Http.Socks> proxy() {
        return http.proxy();
    }

    /** The same client, through another proxy (or directly), with the same time limits. */
    public Publisher via(Optional<Http.Socks> proxy) {
        return proxy.equals(http.proxy()) ? this : new Publisher(server, token, new Http(http.timeouts(), proxy), uploads, resumableFrom);
    }

    /**
     * The client for a queued item: through the proxy it was queued to go through, if it names one and
     * this client was not given a route of its own ({@code routeGiven}); a retry is never less private.
     */
    public Publisher forQueued(QueuedPublish q, boolean routeGiven) {
        return routeGiven || q.proxy().isEmpty() ? this : via(q.proxy());
    }

    /**
     * Sends a share bundle, read as it is sent.
     *
     * @param bundle the zip
     * @param name the file name the server shows
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} to queue and retry,
     *     {@link Failure#KEY_LOCKED} for a token the server refuses, {@link Failure#BAD_DATA} for a bundle it
     *     will not take
     */
    public Published bundle(Path bundle, String name) {
        long size;
        try {
            size = Files.size(bundle);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, bundle + ": cannot read: " + e.getMessage(), e);
        }
        if (size >= resumableFrom) {
            Optional<Published> resumed = resumable(bundle, size, name);
            if (resumed.isPresent()) {
                return resumed.get();
            }
        }
        URI uri = api("/api/v1/evidence?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
        Http.Response r = http.upload(uri, "application/zip", "application/json", auth(), bundle, MAX_ANSWER);
        return published(uri, r);
    }

    /**
     * Sends a large bundle by resumable upload (docs/http-api.md, "Resumable uploads"): an upload begun
     * before for the same bytes goes on from the offset the server holds; a new one is made otherwise.
     * A connection that drops leaves the upload's address kept, for the next attempt.
     *
     * @return empty if the server does not offer resumable uploads
     */
    private Optional<Published> resumable(Path bundle, long size, String name) {
        String sha;
        try {
            sha = Digests.sha256(bundle);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, bundle + ": cannot read: " + e.getMessage(), e);
        }
        Path state = uploads.resolve(sha + ".url");
        Optional<URI> at = readState(state);
        long offset = 0;
        if (at.isPresent()) {
            Http.Response h = http.head(at.get(), auth());
            if (h.status() == 200) {
                offset = offset(at.get(), h, size).orElse(0L);
            } else if (h.status() == 404) {
                at = Optional.empty();
            } else {
                answer(at.get(), h);
            }
        }
        if (at.isEmpty()) {
            URI create = api("/api/v1/uploads?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
            Http.Response c = http.post(create, "application/octet-stream", "application/json",
                    Map.of("Authorization", "Bearer " + token, "Upload-Length", Long.toString(size), "Upload-Sha256", sha,
                            "Tus-Resumable", "1.0.0"), new byte[0], MAX_ANSWER);
            if (c.status() == 404 || c.status() == 405) {
                return Optional.empty();
            }
            String location = c.header("Location").orElse("");
            if (c.status() != 201 || !location.matches("/api/v1/uploads/[0-9a-f]{32}")) {
                answer(create, c);
                throw new ProofModeException(Failure.BAD_DATA, create + ": the server made no upload");
            }
            at = Optional.of(api(location));
            writeState(state, at.get());
        }
        for (int tries = 0; tries < 2; tries++) {
            Http.Response p = http.patch(at.get(), "application/offset+octet-stream", "application/json",
                    Map.of("Authorization", "Bearer " + token, "Upload-Offset", Long.toString(offset), "Tus-Resumable", "1.0.0"),
                    bundle, offset, MAX_ANSWER);
            Optional<Long> serverHas = p.status() == 409 ? offset(at.get(), p, size) : Optional.empty();
            if (serverHas.isPresent()) {
                offset = serverHas.get();
                continue;
            }
            if (p.status() == 204) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, at.get() + ": the upload stopped at "
                        + p.header("Upload-Offset").orElse("?") + " of " + size + " bytes");
            }
            if (p.status() == 409) {
                deleteState(state); // the bytes did not add up to the bundle: the next attempt starts again
            }
            Published done = published(at.get(), p);
            deleteState(state);
            return Optional.of(done);
        }
        throw new ProofModeException(Failure.SERVICE_UNREACHABLE, at.get() + ": the server's offset kept changing");
    }

    /**
     * The bytes the server says it holds ({@code Upload-Offset}), if it says.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} for a number that is not one, or past the bundle
     */
    private static Optional<Long> offset(URI at, Http.Response r, long size) {
        Optional<String> v = r.header("Upload-Offset");
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (!v.get().matches("\\d{1,18}") || Long.parseLong(v.get()) > size) {
            throw new ProofModeException(Failure.BAD_DATA, at + ": the server's Upload-Offset is not a place in the bundle");
        }
        return Optional.of(Long.parseLong(v.get()));
    }

    private Optional<URI> readState(Path state) {
        try {
            if (!Files.isRegularFile(state)) {
                return Optional.empty();
            }
            String u = Files.readString(state, StandardCharsets.US_ASCII).strip();
            return u.startsWith(server.toString()) ? Optional.of(URI.create(u)) : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static void writeState(Path state, URI at) {
        try {
            AtomicFiles.privateDirectories(state.getParent());
            AtomicFiles.write(state, (at + "\n").getBytes(StandardCharsets.US_ASCII), true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot keep the upload's address in " + state + ": " + e.getMessage(), e);
        }
    }

    private static void deleteState(Path state) {
        try {
            Files.deleteIfExists(state);
        } catch (IOException e) {
            // a stale address: the next attempt asks the server, which no longer knows it, and starts again
        }
    }

    /**
     * Sends a notarization text; the server links it to the bundle when that arrives.
     *
     * @throws ProofModeException as {@link #bundle}
     */
    public Published notarization(String text) {
        URI uri = api("/api/v1/notarizations");
        Http.Response r = http.post(uri, "text/plain; charset=utf-8", "application/json", auth(), text.getBytes(StandardCharsets.UTF_8),
                MAX_ANSWER);
        JsonNode n = answer(uri, r);
        String media = n.path("mediaSha256").asText("");
        return new Published(lookup(media), r.status() == 201);
    }

    /**
     * What the server says of a token: the name it was made for and its scope, as the server sent them
     * (a stranger's text: escape it before showing it).
     *
     * @param name the token's name, empty if the server did not say
     * @param scope {@code upload}, {@code read}, {@code admin} or {@code unscoped}, empty if the server did not say
     */
    public record TokenCheck(String name, String scope) {
        /** Validates the fields. */
        public TokenCheck {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(scope, "scope");
        }
    }

    /**
     * Checks that the server answers and takes the token ({@code GET /api/v1/token}; a server older than
     * scopes is asked for one search result instead).
     *
     * @return what the server says of the token
     * @throws ProofModeException as {@link #bundle}
     */
    public TokenCheck check() {
        URI uri = api("/api/v1/token");
        Http.Response r = http.get(uri, "application/json", auth(), MAX_ANSWER);
        if (r.status() == 404) {
            URI old = api("/api/v1/evidence?limit=1");
            answer(old, http.get(old, "application/json", auth(), MAX_ANSWER));
            return new TokenCheck("", "");
        }
        JsonNode n = answer(uri, r);
        return new TokenCheck(n.path("name").asText(""), n.path("scope").asText(""));
    }

    private Map<String, String> auth() {
        return Map.of("Authorization", "Bearer " + token);
    }

    private URI api(String pathAndQuery) {
        String base = server.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + pathAndQuery);
    }

    private URI lookup(String media) {
        return api("/api/v1/notarizations?q=" + (media.matches("[0-9a-f]{64}") ? media : ""));
    }

    private Published published(URI uri, Http.Response r) {
        JsonNode n = answer(uri, r);
        String id = n.path("sha256").asText("");
        String link = n.path("permalink").asText("");
        // a path on this server, in characters a URI takes as they are: a hostile answer can neither
        // point elsewhere nor put anything on the terminal
        if (!id.matches("[0-9a-f]{64}") || !link.matches("/[A-Za-z0-9#._~/-]{0,200}") || link.startsWith("//")) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the server's answer has no item id or permalink");
        }
        return new Published(api(link), r.status() == 201);
    }

    private static JsonNode answer(URI uri, Http.Response r) {
        int s = r.status();
        if (s == 401 || s == 403) {
            throw new ProofModeException(Failure.KEY_LOCKED, uri.getScheme() + "://" + uri.getRawAuthority()
                    + ": the server refused the upload token (HTTP " + s + "); set it again with 'proofmode publish login URL'");
        }
        if (s == 413) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the bundle is larger than this server takes (HTTP 413)");
        }
        if (s == 429) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": the server asks to slow down (HTTP 429)");
        }
        if (s != 200 && s != 201) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the server refused it (HTTP " + s + problem(r) + ")");
        }
        try {
            JsonNode n = JSON.readTree(r.body());
            if (n == null || !n.isObject()) {
                throw new IOException("not a JSON object");
            }
            return n;
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the server's answer is not the evidence API's JSON", e);
        }
    }

    /** The title or detail of an RFC 9457 problem document, if the answer is one; safe to print. */
    private static String problem(Http.Response r) {
        try {
            JsonNode n = JSON.readTree(r.body());
            String t = n == null ? "" : n.path("detail").asText(n.path("title").asText(""));
            return t.isBlank() ? "" : ": " + SafeText.escape(t.length() > 200 ? t.substring(0, 200) + "..." : t);
        } catch (IOException e) {
            return "";
        }
    }
}
