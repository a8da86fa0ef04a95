// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.util.Hex;
import org.proofmode.util.Http;

/**
 * An item waiting to be published.
 *
 * @param sha256 the proof's media SHA-256
 * @param what what to send
 * @param server the evidence server it goes to
 * @param attempts failed attempts so far
 * @param queuedAt when it was first queued
 * @param nextTry when it is due again
 * @param lastError why the last attempt failed
 * @param proxy the SOCKS5 proxy it was to go through, if any: a retry never takes a less private route
 */
public record QueuedPublish(String sha256, Publisher.What what, URI server, int attempts, Instant queuedAt, Instant nextTry,
        Optional<String> lastError, Optional<Http.Socks> proxy) {
    /** Validates the fields. */
    public QueuedPublish {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(queuedAt, "queuedAt");
        Objects.requireNonNull(nextTry, "nextTry");
        Objects.requireNonNull(lastError, "lastError");
        Objects.requireNonNull(proxy, "proxy");
    }

    /** Tells whether the item may be tried again at {@code now}. */
    public boolean due(Instant now) {
        return !nextTry.isAfter(now);
    }
}
