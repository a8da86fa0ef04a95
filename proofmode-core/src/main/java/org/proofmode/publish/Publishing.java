// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where new proofs are published, and what of them.
 *
 * @param publisher the server's client
 * @param what what is sent of each proof
 */
public record Publishing(Publisher publisher, Publisher.What what) {
    /** Validates the fields. */
    public Publishing {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(what, "what");
    }

    /**
     * What became of one proof: sent (with the server's link to it) or queued (with why).
     *
     * @param sha256 the proof's media SHA-256
     * @param what what was sent of it
     * @param link the server's permalink (or, for a notarization, its lookup), when sent
     * @param queued why it waits, when queued
     */
    public record Result(String sha256, Publisher.What what, Optional<URI> link, Optional<String> queued) {
        /** Validates the fields. */
        public Result {
            Objects.requireNonNull(sha256, "sha256");
            Objects.requireNonNull(what, "what");
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(queued, "queued");
        }

        /** The line {@code publish} prints: {@code <sha256>  published|notarized|queued  <link or why>}. */
        public String line() {
            return sha256 + "  " + (queued.isPresent() ? "queued  " + queued.get()
                    : (what == Publisher.What.NOTARIZE_ONLY ? "notarized  " : "published  ") + link.map(URI::toString).orElse(""));
        }
    }
}
