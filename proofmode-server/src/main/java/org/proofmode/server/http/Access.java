// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import io.javalin.http.Context;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.RateLimiter;
import org.proofmode.server.store.TokenStore;

/**
 * Who may do what. Tokens travel only in the {@code Authorization: Bearer} header, never in a cookie, so
 * a page on another site cannot make a browser act with them; state-changing requests that a browser
 * marks as cross-site are refused all the same.
 */
public final class Access {
    private final TokenStore tokens;
    private final RateLimiter limiter;

    /** Creates the checks. */
    public Access(TokenStore tokens, RateLimiter limiter) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
    }

    /**
     * Checks the token and counts the request against its rate.
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
        return new EvidenceStore.Actor(t.id(), t.name(), remote(ctx));
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
