// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Objects;
import org.proofmode.util.Hex;

/**
 * The asset a new one was made from (a {@code parentOf} ingredient): the original of a redacted copy.
 *
 * @param title the original's file name
 * @param format the original's media type, e.g. {@code image/jpeg}
 * @param sha256 the SHA-256 of the original's bytes, recorded as its instance id
 *     ({@code urn:sha256:<hex>})
 */
public record Ingredient(String title, String format, byte[] sha256) {
    /** Validates and copies the fields. */
    public Ingredient {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(format, "format");
        if (sha256.length != 32) {
            throw new IllegalArgumentException("a SHA-256 has 32 bytes");
        }
        sha256 = sha256.clone();
    }

    @Override
    public byte[] sha256() {
        return sha256.clone();
    }

    /** The instance id recorded in the ingredient assertion. */
    public String instanceId() {
        return "urn:sha256:" + Hex.encode(sha256);
    }
}
