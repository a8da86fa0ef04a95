// SPDX-License-Identifier: Apache-2.0
package org.proofmode.sign;

import java.security.MessageDigest;
import java.util.Objects;
import org.proofmode.util.Hex;

/**
 * A document hashed once with SHA-256: its digest, and the hash state from which any number of
 * signatures over it can be finished without reading it again.
 */
public final class Prehash {
    private final MessageDigest state;
    private final String sha256;
    private final long size;

    Prehash(MessageDigest state, long size) {
        this.state = Objects.requireNonNull(state, "state");
        this.size = size;
        this.sha256 = Hex.encode(copy().digest());
    }

    /** The document's SHA-256, lower-case hex. */
    public String sha256() {
        return sha256;
    }

    /** How many bytes were hashed. */
    public long size() {
        return size;
    }

    /** A copy of the running hash state, positioned at the end of the document. */
    public MessageDigest copy() {
        try {
            return (MessageDigest) state.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("this Java runtime's SHA-256 cannot be cloned", e);
        }
    }
}
