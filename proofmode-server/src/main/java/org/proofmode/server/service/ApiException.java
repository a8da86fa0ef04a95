// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import java.util.Objects;

/** A request that cannot be served, with the problem it answers with; see {@link Problems}. */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ProblemType type;

    /**
     * Creates the exception.
     *
     * @param type the problem
     * @param detail one line for the client; never a server path or a secret
     */
    public ApiException(ProblemType type, String detail) {
        super(detail);
        this.type = Objects.requireNonNull(type, "type");
    }

    /** The problem. */
    public ProblemType type() {
        return type;
    }
}
