// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import io.javalin.http.Context;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.RateLimiter;
import org.proofmode.server.store.TokenScope;
import org.proofmode.server.store.TokenStore;

/**
 * Who may do what. Tokens travel only in the {@code Authorization: Bearer} header, never in a cookie, so
 * a page on another site cannot make a browser act with them; state-changing requests that a browser
 * marks as cross-site are refused all the same. Each token's {@link TokenScope} decides what it may do:
 * {@link #requireSend}, {@link #requireReadAll}, {@link #requireItem}.
 */
public final class Access {
    private static final String TOKEN = "proofmode.token";

    private final TokenStore tokens;
    private final RateLimiter limiter;

    /** Creates the checks. */
    public Access(TokenStore tokens, RateLimiter limiter) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
    }

    /**
     * Checks the token, whatever its scope, and counts the request against its rate.
     *
     * @return who is acting
     * @throws ApiException {@link ProblemType#UNAUTHORIZED} or {@link ProblemType#RATE_LIMITED}
     */
    public EvidenceStore.Actor require(Context ctx) {
        String h = ctx.header("Authorization");
        if (h == null || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiException(ProblemType.UNAUTHORIZED, "send Authorization: Bearer <token> (proofmode server token create)");
        }
        TokenStore.TokenInfo t = tokens.authenticate(h.substring(7).strip())
                .orElseThrow(() -> new ApiException(ProblemType.UNAUTHORIZED, "the token is unknown or revoked"));
        long wait = limiter.hit(t.id());
        if (wait > 0) {
            ctx.header("Retry-After", Long.toString(wait));
            throw new ApiException(ProblemType.RATE_LIMITED, "this token sent too many requests; retry in " + wait + " s");
        }
        ctx.attribute(TOKEN, t);
        return new EvidenceStore.Actor(t.id(), t.name(), remote(ctx));
    }

    /**
     * Checks a token that may send evidence (scope upload or admin).
     *
     * @throws ApiException as {@link #require}, or {@link ProblemType#SCOPE} for a read token
     */
    public EvidenceStore.Actor requireSend(Context ctx) {
        EvidenceStore.Actor actor = require(ctx);
        if (!scope(ctx).maySend()) {
            throw new ApiException(ProblemType.SCOPE, "this token may read, not send (scope read); send with an upload token");
        }
        return actor;
    }

    /**
     * Checks a token that may read every item (scope read or admin).
     *
     * @throws ApiException as {@link #require}, or {@link ProblemType#SCOPE} for an upload token
     */
    public EvidenceStore.Actor requireReadAll(Context ctx) {
        EvidenceStore.Actor actor = require(ctx);
        if (!scope(ctx).mayReadAll()) {
            throw new ApiException(ProblemType.SCOPE, "an upload token reads back only the items it sent, by their SHA-256; "
                    + "searching and looking up need a read token");
        }
        return actor;
    }

    /**
     * Checks that the token of a request {@link #require}d may read an item: a read or admin token reads
     * any, an upload token only one it sent. Another's item is not found, as one that does not exist.
     *
     * @throws ApiException {@link ProblemType#NOT_FOUND} for an upload token and an item it did not send
     */
    public void requireItem(Context ctx, EvidenceStore.Actor actor, String sha256, EvidenceStore evidence) {
        if (!scope(ctx).mayReadAll() && !evidence.sentBy(sha256, actor.tokenId())) {
            throw new ApiException(ProblemType.NOT_FOUND, "no evidence " + sha256);
        }
    }

    /** The scope of the token a request was checked with ({@link #require} first). */
    public static TokenScope scope(Context ctx) {
        return token(ctx).rights();
    }

    /** The token a request was checked with ({@link #require} first). */
    public static TokenStore.TokenInfo token(Context ctx) {
        TokenStore.TokenInfo t = ctx.attribute(TOKEN);
        if (t == null) {
            throw new IllegalStateException("the token was not checked");
        }
        return t;
    }

    /** Refuses a state-changing request that a browser says comes from another site. */
    public static void sameOrigin(Context ctx) {
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null && site.toLowerCase(Locale.ROOT).equals("cross-site")) {
            throw new ApiException(ProblemType.FORBIDDEN, "cross-site requests are refused");
        }
        String origin = ctx.header("Origin");
        if (origin != null && origin.strip().equalsIgnoreCase("null")) {
            // An opaque origin (a sandboxed frame, a data: or file: page, some redirects): never this site.
            throw new ApiException(ProblemType.FORBIDDEN, "cross-site requests are refused (Origin: null)");
        }
        if (origin != null) {
            String host = ctx.header("Host");
            String originHost;
            try {
                originHost = URI.create(origin).getAuthority();
            } catch (IllegalArgumentException e) {
                originHost = null;
            }
            if (host == null || !host.equalsIgnoreCase(originHost)) {
                throw new ApiException(ProblemType.FORBIDDEN, "cross-site requests are refused");
            }
        }
    }

    /** The client address as the server sees it (no proxy header is believed). */
    public static String remote(Context ctx) {
        return ctx.req().getRemoteAddr();
    }
}
