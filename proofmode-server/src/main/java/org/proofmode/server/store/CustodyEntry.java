// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.util.Objects;
import java.util.Optional;

/**
 * One line of an item's chain of custody, linked to the line before it by {@code prev} and sealed by
 * {@code hash} (see {@link CustodyChain} for the encoding).
 *
 * @param at when, ISO-8601 UTC
 * @param action what happened
 * @param actor who (token name and id)
 * @param remote from where (the client address as the server saw it)
 * @param verdict the verification result, for intake and re-verification
 * @param detail one line more
 * @param prev the hash of the item's previous line, or {@link CustodyChain#GENESIS} for its first; empty
 *     when a row was stored without one
 * @param hash this line's hash as stored; empty when missing
 */
public record CustodyEntry(String at, CustodyAction action, String actor, String remote, Optional<String> verdict,
        String detail, String prev, String hash) {
    /** Validates the fields. */
    public CustodyEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(prev, "prev");
        Objects.requireNonNull(hash, "hash");
    }
}
