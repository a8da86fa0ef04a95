// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The original of a redacted copy, given to the verifier so that it can compare the two and verify the
 * original's proof.
 *
 * @param path the original media file, or a share bundle (zip or folder) holding it with its proof
 * @param proof for a media file, its proof folder or bundle (from the store, say); empty when it has none
 *     or {@code path} is a bundle
 */
public record RedactionOriginal(Path path, Optional<Path> proof) {
    /** Validates the fields. */
    public RedactionOriginal {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(proof, "proof");
    }
}
