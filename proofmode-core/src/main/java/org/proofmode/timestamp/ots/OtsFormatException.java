// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

/** The bytes are not a well-formed OpenTimestamps proof. The one exception the parser throws. */
public final class OtsFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming what is wrong and where. */
    public OtsFormatException(String message) {
        super(message);
    }
}
