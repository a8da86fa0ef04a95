// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

/** A signed note, checkpoint or verifier key that is not in its format: bad data from whoever sent it. */
public class NoteFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** With a message saying what is wrong. */
    public NoteFormatException(String message) {
        super(message);
    }

    /** With a message and the error that revealed it. */
    public NoteFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
