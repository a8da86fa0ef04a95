// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The containers whose embedded C2PA manifest stores are read (JPEG, PNG, ISO BMFF, TIFF/DNG, RIFF, MP3)
 * and written (JPEG, PNG, WAV, AVI, WebP).
 */
public enum AssetFormat {
    /** JPEG: the store in APP11 segments (JPEG XT box format). */
    JPEG("image/jpeg", true),
    /** PNG: the store in a {@code caBX} chunk. */
    PNG("image/png", true),
    /** ISO BMFF (MP4, MOV, HEIF/HEIC, AVIF, 3GP): the store in a top-level {@code uuid} box; read only. */
    MP4("video/mp4", false),
    /** TIFF and DNG: the store as the value of tag 0xCD41 (type UNDEFINED) of the last IFD, else IFD0; read only. */
    TIFF("image/tiff", false),
    /** WAV: the store in a top-level {@code C2PA} RIFF chunk, written as the RIFF's last chunk. */
    WAV("audio/wav", true),
    /** AVI: the store in a top-level {@code C2PA} RIFF chunk, written as the first RIFF's last chunk. */
    AVI("video/x-msvideo", true),
    /** WebP: the store in a top-level {@code C2PA} RIFF chunk, written as the RIFF's last chunk. */
    WEBP("image/webp", true),
    /** MP3: the store in an ID3v2 {@code GEOB} frame of type {@code application/c2pa}; read only. */
    MP3("audio/mpeg", false);

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

    /** The formats manifests are written into, named for messages: {@code JPEG, PNG, WAV…}. */
    public static String writableNames() {
        return Arrays.stream(values()).filter(AssetFormat::writable).map(Enum::name)
                .collect(Collectors.joining(", "));
    }

    /** Tells whether this is a RIFF container (WAV, AVI, WebP). */
    boolean riff() {
        return this == WAV || this == AVI || this == WEBP;
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
        if (head.length >= 8 && (ascii(head, 4, "moov") || ascii(head, 4, "wide") && head[3] == 8)) {
            return Optional.of(MP4); // QuickTime without ftyp
        }
        if (head.length >= 4 && (head[0] == 'I' && head[1] == 'I' && head[2] == 0x2A && head[3] == 0
                || head[0] == 'M' && head[1] == 'M' && head[2] == 0 && head[3] == 0x2A)) {
            return Optional.of(TIFF);
        }
        if (head.length >= 12 && ascii(head, 0, "RIFF")) {
            if (ascii(head, 8, "WAVE")) {
                return Optional.of(WAV);
            }
            if (ascii(head, 8, "AVI ")) {
                return Optional.of(AVI);
            }
            if (ascii(head, 8, "WEBP")) {
                return Optional.of(WEBP);
            }
        }
        if (head.length >= 10 && ascii(head, 0, "ID3")) {
            return Optional.of(MP3);
        }
        return Optional.empty();
    }

    private static boolean ascii(byte[] b, int at, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (b[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
