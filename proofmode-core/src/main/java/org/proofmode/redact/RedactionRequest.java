// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.imaging.ImageFormat;

/**
 * What to redact in one photo.
 *
 * @param regions regions chosen by the person, applied in order
 * @param faces whether (and how) to detect faces and add them as regions
 * @param strip which metadata the copy keeps ({@link StripPolicy#ALL}: none)
 * @param format the copy's format; empty: the original's
 */
public record RedactionRequest(List<Region> regions, Optional<FaceSearch> faces, StripPolicy strip, Optional<ImageFormat> format) {
    /**
     * Face detection settings.
     *
     * @param model the OpenCV Haar cascade file
     * @param method how detected faces are hidden
     */
    public record FaceSearch(Path model, Method method) {
        /** Validates the fields. */
        public FaceSearch {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(method, "method");
        }
    }

    /** The model Debian's {@code opencv-data} package installs. */
    public static final Path DEBIAN_FACE_MODEL = Path.of("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml");

    /** Validates and copies the fields. */
    public RedactionRequest {
        regions = List.copyOf(regions);
        Objects.requireNonNull(faces, "faces");
        Objects.requireNonNull(strip, "strip");
        Objects.requireNonNull(format, "format");
    }
}
