// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.store.LogStore;
import org.proofmode.tlog.Tiles;
import org.proofmode.tlog.TlogProof;

/**
 * The transparency log's read API: the C2SP {@code tlog-tiles} paths under {@code /log/} (public, no
 * token: entries hold nothing personal), the log key at {@code /api/v1/log/key}, and items' receipts.
 * Tiles and entry bundles never change once they exist, so they are served as immutable: a CDN or a
 * static mirror can serve the log.
 */
public final class LogApi {
    /** How long a checkpoint may be cached: clients must see new ones within seconds. */
    public static final String CHECKPOINT_CACHE = "public, max-age=2";
    /** Tiles, full or partial, never change. */
    public static final String TILE_CACHE = "public, max-age=31536000, immutable";

    private final LogStore log;
    private final int quorum;

    /**
     * Wires the handlers.
     *
     * @param quorum how many witnesses must have cosigned a checkpoint before it is served or used in receipts
     */
    public LogApi(LogStore log, int quorum) {
        this.log = Objects.requireNonNull(log, "log");
        this.quorum = quorum;
    }

    /**
     * {@code GET /log/checkpoint}, {@code GET /log/tile/...}, and {@code GET /log/timestamp/<size>}: the
     * RFC 3161 time-stamp (DER {@code TimeStampResp}) of the checkpoint of that size, over the SHA-256 of
     * its text, when the server has a time-stamp authority.
     */
    public void read(Context ctx) {
        String path = ctx.pathParam("path");
        if (path.equals("checkpoint")) {
            ctx.header("Cache-Control", CHECKPOINT_CACHE);
            ctx.contentType("text/plain; charset=utf-8");
            ctx.result(log.served(quorum).note());
            return;
        }
        if (path.matches("timestamp/(0|[1-9][0-9]{0,17})")) {
            byte[] token = log.timestamp(Long.parseLong(path.substring("timestamp/".length()))).orElseThrow(() -> new ApiException(
                    ProblemType.NOT_FOUND, "no time-stamp of that checkpoint (yet)"));
            ctx.header("Cache-Control", TILE_CACHE);
            ctx.contentType("application/timestamp-reply");
            ctx.result(token);
            return;
        }
        Tiles.Request request = Tiles.parse(path).orElseThrow(() -> new ApiException(ProblemType.NOT_FOUND,
                "no such log resource: /log/checkpoint, /log/tile/<L>/<N>[.p/<W>] or /log/tile/entries/<N>[.p/<W>]"));
        byte[] data = log.tile(request).orElseThrow(() -> new ApiException(ProblemType.NOT_FOUND,
                "the log does not hold " + path + " (yet)"));
        ctx.header("Cache-Control", TILE_CACHE);
        ctx.contentType("application/octet-stream");
        ctx.result(data);
    }

    /** {@code GET /api/v1/log/key}: the verifier key of the log's checkpoints, one line. */
    public void key(Context ctx) {
        ctx.contentType("text/plain; charset=utf-8");
        ctx.result(log.state().verifierKey() + "\n");
    }

    /** Answers with an item's receipt, a C2SP tlog-proof (the caller checked the token and the item). */
    void receipt(Context ctx, String sha256) {
        TlogProof proof = log.receipt(sha256, quorum).orElseThrow(() -> {
            ctx.header("Retry-After", "1");
            return new ApiException(ProblemType.NOT_FOUND, "the item's log entry is not under a checkpoint yet" + (quorum > 0 ? " cosigned by its witnesses" : "") + ": retry in a second");
        });
        ctx.contentType("text/plain; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"" + sha256 + ".tlog\"");
        ctx.result(proof.encoded());
    }

    /** The log's part of an item's JSON while its entry waits for a checkpoint. */
    static ObjectNode queued() {
        return EvidenceJson.MAPPER.createObjectNode().put("state", "queued");
    }

    /**
     * What an item's JSON says of its place in the log: {@code included} with the index, the tree size
     * and the receipt, or {@code queued}.
     */
    public ObjectNode describe(String sha256) {
        ObjectNode n = EvidenceJson.MAPPER.createObjectNode();
        Optional<TlogProof> r = log.receipt(sha256, quorum);
        if (r.isEmpty()) {
            return queued();
        }
        n.put("state", "included");
        n.put("index", r.get().index());
        n.put("receipt", new String(r.get().encoded(), StandardCharsets.UTF_8));
        n.put("url", "/api/v1/evidence/" + sha256 + "/receipt");
        return n;
    }
}
