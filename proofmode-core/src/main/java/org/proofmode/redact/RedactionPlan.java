// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.c2pa.ManifestChain;
import org.proofmode.imaging.ImageFormat;
import org.proofmode.imaging.Picture;

/**
 * A redaction ready to be written: the decoded original and every region, including detected faces, for
 * a person to review first ({@code --dry-run} stops here). A plan is written at most once.
 *
 * @param input the original file
 * @param sha256 the original's SHA-256
 * @param inputFormat the original's format
 * @param outputFormat the copy's format
 * @param strip which metadata the copy keeps
 * @param width width as displayed
 * @param height height as displayed
 * @param orientation the EXIF orientation applied (1: none)
 * @param regions every region, the person's first, then detected faces
 * @param faces how many of the regions come from face detection
 */
public record RedactionPlan(Path input, String sha256, ImageFormat inputFormat, ImageFormat outputFormat, StripPolicy strip,
        int width, int height, int orientation, List<Region> regions, int faces, Source source) {
    /** Validates and copies the fields. */
    public RedactionPlan {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(inputFormat, "inputFormat");
        Objects.requireNonNull(outputFormat, "outputFormat");
        Objects.requireNonNull(strip, "strip");
        regions = List.copyOf(regions);
        Objects.requireNonNull(source, "source");
    }

    /**
     * The assertions of the original's content credentials that a copy with {@code --c2pa} redacts
     * ({@link EarlierCredentials}): empty when the original has none, or none that reveal what this
     * redaction removes.
     */
    public List<ManifestChain.Revealing> credentialsRedacted() {
        return source.chain.map(c -> EarlierCredentials.toRedact(c, strip, regions)).orElse(List.of());
    }

    /** The original's bytes, decoded pixels and content credentials, kept for writing; not part of the API. */
    public static final class Source {
        final byte[] bytes;
        final Picture picture;
        final Optional<ManifestChain> chain;
        private boolean used;

        Source(byte[] bytes, Picture picture, Optional<ManifestChain> chain) {
            this.bytes = bytes;
            this.picture = picture;
            this.chain = chain;
        }

        synchronized Picture take() {
            if (used) {
                throw new IllegalStateException("this plan was written already");
            }
            used = true;
            return picture;
        }

        @Override
        public String toString() {
            return "Source[" + bytes.length + " bytes]";
        }
    }
}
