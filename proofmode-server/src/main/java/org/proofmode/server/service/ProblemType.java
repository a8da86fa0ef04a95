// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

/**
 * The kinds of error the API answers with, each an {@code application/problem+json} document (RFC 9457)
 * whose {@code type} is {@code urn:proofmode:problem:<slug>}. Slugs and statuses are a stable contract,
 * listed in {@code docs/http-api.md}.
 */
public enum ProblemType {
    /** The request is malformed: a bad parameter, a missing file part. */
    BAD_REQUEST(400, "bad-request", "Bad request"),
    /** No token, an unknown token or a revoked one. */
    UNAUTHORIZED(401, "unauthorized", "A valid upload token is required"),
    /** A cross-site request to a state-changing endpoint. */
    FORBIDDEN(403, "forbidden", "Cross-site request refused"),
    /** The token's scope does not allow this: an upload token searching, a read token sending. */
    SCOPE(403, "scope", "The token's scope does not allow this"),
    /** Nothing is stored under that name. */
    NOT_FOUND(404, "not-found", "Not found"),
    /** The method is not allowed on that resource. */
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed"),
    /** A stored item would be overwritten. */
    CONFLICT(409, "conflict", "Conflict"),
    /** The upload is larger than the server accepts. */
    TOO_LARGE(413, "too-large", "Upload too large"),
    /** The body is neither a zip nor a multipart form. */
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Send a zip or a multipart form"),
    /** The bundle is corrupt or hostile: not a zip, unsafe names, too many entries, a decompression bomb. */
    BAD_BUNDLE(422, "bad-bundle", "The bundle cannot be read"),
    /** An algorithm, format or version this server does not support. */
    UNSUPPORTED(422, "unsupported", "Unsupported format or algorithm"),
    /** The token sent too many requests; retry after the time in {@code Retry-After}. */
    RATE_LIMITED(429, "rate-limited", "Too many requests"),
    /** A bug. */
    INTERNAL(500, "internal", "Internal error"),
    /** A service the server relies on could not be reached. */
    UPSTREAM(502, "upstream", "A service could not be reached"),
    /** Storage failed (disk full, database unreachable), or verification took too long. */
    UNAVAILABLE(503, "unavailable", "Service unavailable"),
    /** The uploads in progress hold all the room the server gives them; {@code Retry-After} says when one expires at the latest. */
    INSUFFICIENT_STORAGE(507, "insufficient-storage", "No room for another upload in progress");

    private final int status;
    private final String slug;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The stable short name. */
    public String slug() {
        return slug;
    }

    /** A one-line title for people. */
    public String title() {
        return title;
    }

    /** The {@code type} URI of the problem document. */
    public String uri() {
        return "urn:proofmode:problem:" + slug;
    }
}
