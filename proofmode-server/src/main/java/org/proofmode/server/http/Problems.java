// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;

/**
 * The one place where failures become HTTP answers: every error leaves the server as an
 * {@code application/problem+json} document. The table is pinned by a test and printed in
 * {@code docs/http-api.md}.
 */
public final class Problems {
    /** The media type of problem documents. */
    public static final String CONTENT_TYPE = "application/problem+json";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Problems() {}

    /** Maps a library failure to its problem. */
    public static ProblemType of(Failure failure) {
        return switch (failure) {
            case INPUT_MISSING -> ProblemType.NOT_FOUND;
            case BAD_DATA -> ProblemType.BAD_BUNDLE;
            case BAD_ARGUMENT, INCOMPATIBLE_OPTIONS -> ProblemType.BAD_REQUEST;
            case UNSUPPORTED -> ProblemType.UNSUPPORTED;
            case OUTPUT_EXISTS -> ProblemType.CONFLICT;
            case SERVICE_UNREACHABLE -> ProblemType.UPSTREAM;
            case IO -> ProblemType.UNAVAILABLE;
            case KEY_LOCKED, INTERNAL -> ProblemType.INTERNAL;
        };
    }

    /** Maps an HTTP status that the framework raised (404 of an unknown route, 413, ...) to its problem. */
    public static ProblemType ofStatus(int status) {
        return switch (status) {
            case 400 -> ProblemType.BAD_REQUEST;
            case 401 -> ProblemType.UNAUTHORIZED;
            case 403 -> ProblemType.FORBIDDEN;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 413 -> ProblemType.TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case 429 -> ProblemType.RATE_LIMITED;
            case 503 -> ProblemType.UNAVAILABLE;
            default -> status >= 500 ? ProblemType.INTERNAL : ProblemType.BAD_REQUEST;
        };
    }

    /** The problem and client-safe detail of any exception a handler threw. */
    public static ObjectNode document(Exception e, String instance) {
        if (e instanceof ApiException a) {
            return document(a.type(), a.getMessage(), instance);
        }
        if (e instanceof ProofModeException p) {
            ProblemType t = of(p.failure());
            return document(t, t == ProblemType.INTERNAL || t == ProblemType.UNAVAILABLE ? t.title() : p.getMessage(), instance);
        }
        if (e instanceof HttpResponseException h) {
            ProblemType t = ofStatus(h.getStatus());
            return document(t, t.title(), instance);
        }
        return document(ProblemType.INTERNAL, ProblemType.INTERNAL.title(), instance);
    }

    /** A problem document. */
    public static ObjectNode document(ProblemType type, String detail, String instance) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("type", type.uri());
        n.put("title", type.title());
        n.put("status", type.status());
        n.put("detail", detail);
        n.put("instance", instance);
        return n;
    }

    /** Answers a request with the problem of an exception. */
    public static void respond(Context ctx, Exception e) {
        respond(ctx, document(e, ctx.path()));
    }

    /** Answers a request with a problem document. */
    public static void respond(Context ctx, ObjectNode problem) {
        ctx.status(problem.get("status").asInt());
        ctx.contentType(CONTENT_TYPE);
        ctx.result(problem.toString());
    }
}
