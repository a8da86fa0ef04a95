// SPDX-License-Identifier: Apache-2.0
package org.proofmode.sign;

import java.util.Objects;

/**
 * The result of signing a document in one pass.
 *
 * @param sha256 the document's SHA-256, lower-case hex
 * @param size how many bytes were read
 * @param armoredSignature the detached OpenPGP signature, ASCII-armored
 */
public record Signed(String sha256, long size, String armoredSignature) {
    /** Validates the fields. */
    public Signed {
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(armoredSignature, "armoredSignature");
    }
}
