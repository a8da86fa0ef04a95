package org.proofmode.server.store;

import java.util.Objects;
import java.util.Optional;

/**
 * One line of an item's chain of custody.
 *
 * @param at when, ISO-8601 UTC
 * @param action what happened
 * @param actor who (token name and id)
 * @param remote from where (the client address as the server saw it)
 * @param verdict the verification result, for intake and re-verification
 * @param detail one line more
 */
public record CustodyEntry(String at, CustodyAction action, String actor, String remote, Optional<String> verdict,
        String detail) {
    /** Validates the fields. */
    public CustodyEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(detail, "detail");
    }
}
