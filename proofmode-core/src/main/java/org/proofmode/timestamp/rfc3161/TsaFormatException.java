// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

/** The bytes are not a well-formed RFC 3161 time-stamp response or token. The one exception the parser throws. */
public final class TsaFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming what is wrong. */
    public TsaFormatException(String message) {
        super(message);
    }

    /** Creates the exception with a message and the parser's exception. */
    public TsaFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
