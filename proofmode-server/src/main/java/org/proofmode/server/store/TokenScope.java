// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.util.Locale;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * What a token may do on the evidence server.
 *
 * <p>Security: a field device holds an {@link #UPLOAD} token, so a seized device reads back only what it
 * sent itself, never the desk's archive; the desk reads with {@link #READ}.
 */
public enum TokenScope {
    /** Send bundles, notarizations and resumable uploads; read back only the items this token sent. */
    UPLOAD,
    /** Read every stored item, search, look up notarizations; send nothing. */
    READ,
    /** Both: send, and read everything (tokens are managed only on the server's machine, not over HTTP). */
    ADMIN;

    /** Whether the token may send evidence and notarizations. */
    public boolean maySend() {
        return this != READ;
    }

    /** Whether the token may read every item, whoever sent it. */
    public boolean mayReadAll() {
        return this != UPLOAD;
    }

    /** The name as written on the command line and in the database. */
    public String spelled() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a scope's name.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for anything but upload, read or admin
     */
    public static TokenScope parse(String s) {
        for (TokenScope t : values()) {
            if (t.spelled().equals(s == null ? "" : s.strip().toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new ProofModeException(Failure.BAD_ARGUMENT, "a token's scope is upload, read or admin");
    }
}
