// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

/**
 * Bytes that should hold C2PA data (JUMBF boxes, CBOR, COSE, a manifest store) are malformed or
 * exceed a bound. The one exception the C2PA parsers throw on untrusted input.
 */
public final class C2paFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming what is wrong. */
    public C2paFormatException(String message) {
        super(message);
    }

    /** Creates the exception with a message and the parser's exception. */
    public C2paFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
