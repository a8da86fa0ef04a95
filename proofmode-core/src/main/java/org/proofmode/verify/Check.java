// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.Objects;

/**
 * One verification check.
 *
 * @param code a stable dotted code from {@link CheckCodes}
 * @param status pass, fail, warn or info
 * @param subject the file or item checked
 * @param message one human sentence
 */
public record Check(String code, Status status, String subject, String message) {
    /** Validates the fields. */
    public Check {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(message, "message");
    }
}
