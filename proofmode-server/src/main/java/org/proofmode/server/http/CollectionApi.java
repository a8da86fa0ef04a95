// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.store.CollectionIndex;

/**
 * {@code GET /api/v1/collections?url=|prefix=|host=[&limit=]}: stored collections ({@code proofmode collect})
 * found by the page's address, the most recently collected first. It needs a token that may read everything,
 * as the evidence search does.
 */
public final class CollectionApi {
    /** Most characters of an address searched for. */
    static final int MAX_QUERY = 8192;

    private final CollectionIndex index;
    private final Access access;

    /** Wires the handler. */
    public CollectionApi(CollectionIndex index, Access access) {
        this.index = Objects.requireNonNull(index, "index");
        this.access = Objects.requireNonNull(access, "access");
    }

    /** The handler. */
    public void find(Context ctx) {
        access.requireReadAll(ctx);
        List<Map.Entry<CollectionIndex.By, String>> given = new ArrayList<>();
        for (CollectionIndex.By by : CollectionIndex.By.values()) {
            Optional.ofNullable(ctx.queryParam(by.name().toLowerCase(java.util.Locale.ROOT))).map(String::strip).filter(s -> !s.isEmpty())
                    .ifPresent(v -> given.add(Map.entry(by, v)));
        }
        if (given.size() != 1) {
            throw new ApiException(ProblemType.BAD_REQUEST, "give one of url, prefix or host");
        }
        String text = given.get(0).getValue();
        if (text.length() > MAX_QUERY) {
            throw new ApiException(ProblemType.BAD_REQUEST, "an address searched for is at most " + MAX_QUERY + " characters");
        }
        int limit = Optional.ofNullable(ctx.queryParam("limit")).map(CollectionApi::limit).orElse(100);
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("results");
        for (CollectionIndex.Found f : index.find(given.get(0).getKey(), text, limit)) {
            ObjectNode n = arr.addObject();
            n.put("evidence", f.evidenceSha256());
            n.put("url", f.capture().url());
            n.put("finalUrl", f.capture().finalUrl());
            f.capture().title().ifPresent(t -> n.put("title", t));
            n.put("collected", f.capture().collectedAt());
            f.capture().tlsSubject().ifPresent(t -> n.put("tlsSubject", t));
            n.put("verdict", f.verdict());
            n.put("receivedAt", f.receivedAt());
            n.put("permalink", "/#/evidence/" + f.evidenceSha256());
        }
        EvidenceApi.json(ctx, 200, out);
    }

    private static int limit(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= CollectionIndex.MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the problem below
        }
        throw new ApiException(ProblemType.BAD_REQUEST, "limit is 1 to " + CollectionIndex.MAX_LIMIT);
    }
}
