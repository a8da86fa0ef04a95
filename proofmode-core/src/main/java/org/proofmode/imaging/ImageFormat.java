// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.util.Locale;
import java.util.Optional;

/** The image formats a redacted copy can be written in. */
public enum ImageFormat {
    /** JPEG, baseline, quality {@link Picture#JPEG_QUALITY}: pixels outside the regions change within re-encoding tolerance. */
    JPEG("image/jpeg", "jpeg"),
    /** PNG: lossless, so pixels outside the regions stay exactly as decoded. */
    PNG("image/png", "png");

    private final String mimeType;
    private final String imageIoName;

    ImageFormat(String mimeType, String imageIoName) {
        this.mimeType = mimeType;
        this.imageIoName = imageIoName;
    }

    /** The media type, such as {@code image/jpeg}. */
    public String mimeType() {
        return mimeType;
    }

    String imageIoName() {
        return imageIoName;
    }

    /** The format of a media type, if it is one of these. */
    public static Optional<ImageFormat> ofMimeType(String mimeType) {
        for (ImageFormat f : values()) {
            if (f.mimeType.equals(mimeType)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The format a file name's extension asks for ({@code .jpg}, {@code .jpeg}, {@code .png}), if any. */
    public static Optional<ImageFormat> ofFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".jpg") || n.endsWith(".jpeg")) {
            return Optional.of(JPEG);
        }
        return n.endsWith(".png") ? Optional.of(PNG) : Optional.empty();
    }
}
