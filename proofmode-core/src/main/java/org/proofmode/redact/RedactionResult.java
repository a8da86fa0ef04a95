// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A written redaction.
 *
 * @param output the redacted copy
 * @param sha256 its SHA-256
 * @param record the signed record stored with its proof
 * @param proofFolder the folder of the copy's proof (with the record and its signature)
 * @param existingProof whether a proof of this exact copy, with a record, was already in the store and kept
 */
public record RedactionResult(Path output, String sha256, RedactionRecord record, Path proofFolder, boolean existingProof) {
    /** Validates the fields. */
    public RedactionResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(proofFolder, "proofFolder");
    }
}
