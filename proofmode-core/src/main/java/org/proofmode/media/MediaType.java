// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.util.Objects;

/**
 * A recognised media format.
 *
 * @param kind image, video or audio
 * @param mimeType the IANA media type, e.g. {@code image/jpeg}
 */
public record MediaType(MediaKind kind, String mimeType) {
    /** Validates the fields. */
    public MediaType {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(mimeType, "mimeType");
    }
}
