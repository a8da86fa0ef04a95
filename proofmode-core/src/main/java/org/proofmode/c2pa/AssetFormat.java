// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.proofmode.media.MediaSniffer;

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

    /**
     * Recognises a format from its first bytes (at least 16), by the one sniffer of the project
     * ({@link MediaSniffer}): every ISO BMFF type (MP4, QuickTime, HEIF/HEIC, AVIF, 3GP, M4A, CR3) is
     * {@link #MP4}, TIFF and DNG are {@link #TIFF}, and an MP3 counts only with an ID3 tag, where its
     * manifest store would be.
     */
    public static Optional<AssetFormat> sniff(byte[] head) {
        return MediaSniffer.sniff(head, head.length).flatMap(t -> of(t.mimeType(), head));
    }

    private static Optional<AssetFormat> of(String mimeType, byte[] head) {
        switch (mimeType) {
            case "image/jpeg":
                return Optional.of(JPEG);
            case "image/png":
                return Optional.of(PNG);
            case "video/mp4": case "video/quicktime": case "video/3gpp": case "image/heic": case "image/avif":
            case "image/x-canon-cr3": case "audio/mp4":
                return Optional.of(MP4);
            case "image/tiff":
                return Optional.of(TIFF);
            case "audio/wav":
                return Optional.of(WAV);
            case "video/x-msvideo":
                return Optional.of(AVI);
            case "image/webp":
                return Optional.of(WEBP);
            case "audio/mpeg":
                return head.length >= 3 && head[0] == 'I' && head[1] == 'D' && head[2] == '3' ? Optional.of(MP3) : Optional.empty();
            default:
                return Optional.empty();
        }
    }
}
