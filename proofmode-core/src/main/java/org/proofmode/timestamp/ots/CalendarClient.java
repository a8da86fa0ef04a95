// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.net.URI;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;

/**
 * Speaks the OpenTimestamps calendar protocol: {@code POST <calendar>/digest} with the raw digest
 * answers a timestamp tree rooted at that digest (usually ending in a pending attestation);
 * {@code GET <calendar>/timestamp/<hex commitment>} answers the completed tree for a commitment, or
 * 404 while it is still pending.
 */
public final class CalendarClient {
    /** The media type calendars answer with. */
    public static final String ACCEPT = "application/vnd.opentimestamps.v1";
    /** Most bytes of a calendar's answer. */
    public static final int MAX_ANSWER = 64 * 1024;

    private final Http http;

    /** Creates a client. */
    public CalendarClient(Http http) {
        this.http = Objects.requireNonNull(http, "http");
    }

    /**
     * Submits a digest.
     *
     * @param calendar the calendar's base URL
     * @param digest the message to timestamp (at most {@link Op#MAX_ARGUMENT} bytes)
     * @return the calendar's tree rooted at {@code digest}
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if the calendar cannot be
     *     reached or fails, {@link Failure#BAD_DATA} if it answers with something else than a timestamp
     */
    public Timestamp submit(URI calendar, byte[] digest) {
        URI uri = resolve(calendar, "digest");
        Http.Response r = http.post(uri, "application/x-www-form-urlencoded", ACCEPT, digest, MAX_ANSWER);
        if (r.status() != 200) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the calendar answered HTTP " + r.status());
        }
        return parse(uri, r.body(), digest);
    }

    /**
     * Asks for the completed tree of a commitment.
     *
     * @param calendar the calendar's base URL (from a pending attestation)
     * @param commitment the message at the pending attestation
     * @return the tree rooted at {@code commitment}, or empty while the calendar has not anchored it yet
     * @throws ProofModeException as {@link #submit}
     */
    public Optional<Timestamp> upgrade(URI calendar, byte[] commitment) {
        URI uri = resolve(calendar, "timestamp/" + HexFormat.of().formatHex(commitment));
        Http.Response r = http.get(uri, ACCEPT, MAX_ANSWER);
        if (r.status() == 404) {
            return Optional.empty();
        }
        if (r.status() != 200) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": the calendar answered HTTP " + r.status());
        }
        return Optional.of(parse(uri, r.body(), commitment));
    }

    private static Timestamp parse(URI uri, byte[] body, byte[] msg) {
        try {
            return Timestamp.parse(body, msg);
        } catch (OtsFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, uri + ": not a timestamp (" + e.getMessage() + ")", e);
        }
    }

    private static URI resolve(URI calendar, String path) {
        String base = calendar.toString();
        return URI.create(base.endsWith("/") ? base + path : base + "/" + path);
    }
}
