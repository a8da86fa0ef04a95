// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Optional;

/** The containers whose embedded C2PA manifest stores are read (JPEG, PNG, MP4) and written (JPEG, PNG). */
public enum AssetFormat {
    /** JPEG: the store in APP11 segments (JPEG XT box format). */
    JPEG("image/jpeg", true),
    /** PNG: the store in a {@code caBX} chunk. */
    PNG("image/png", true),
    /** ISO BMFF (MP4, MOV): the store in a top-level {@code uuid} box; read only. */
    MP4("video/mp4", false);

    private final String mimeType;
    private final boolean writable;

    AssetFormat(String mimeType, boolean writable) {
        this.mimeType = mimeType;
        this.writable = writable;
    }

    /** The media type C2PA records ({@code dc:format}). */
    public String mimeType() {
        return mimeType;
    }

    /** Tells whether manifests can be embedded in this format. */
    public boolean writable() {
        return writable;
    }

    /** Recognises a format from its first bytes (at least 12). */
    public static Optional<AssetFormat> sniff(byte[] head) {
        if (head.length >= 3 && (head[0] & 0xFF) == 0xFF && (head[1] & 0xFF) == 0xD8 && (head[2] & 0xFF) == 0xFF) {
            return Optional.of(JPEG);
        }
        if (head.length >= 8 && (head[0] & 0xFF) == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G'
                && head[4] == 0x0D && head[5] == 0x0A && head[6] == 0x1A && head[7] == 0x0A) {
            return Optional.of(PNG);
        }
        if (head.length >= 8 && head[4] == 'f' && head[5] == 't' && head[6] == 'y' && head[7] == 'p') {
            return Optional.of(MP4);
        }
        return Optional.empty();
    }
}
