// SPDX-License-Identifier: Apache-2.0
package org.proofmode.failure;

import java.util.Objects;

/**
 * An operation could not run. Carries a {@link Failure} that front ends map to exit codes or HTTP
 * statuses. A failed verification check is never reported with this exception: it is data in the
 * verification report.
 */
public class ProofModeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Failure failure;

    /**
     * Creates an exception with a one-line, user-facing message.
     *
     * @param failure why the operation could not run
     * @param message one line that names the input and the problem
     */
    public ProofModeException(Failure failure, String message) {
        super(message);
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /**
     * Creates an exception with a one-line, user-facing message and its cause.
     *
     * @param failure why the operation could not run
     * @param message one line that names the input and the problem
     * @param cause the underlying exception
     */
    public ProofModeException(Failure failure, String message, Throwable cause) {
        super(message, cause);
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** Returns why the operation could not run. */
    public Failure failure() {
        return failure;
    }
}
