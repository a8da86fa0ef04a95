// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Recognises photo, video and audio files by their leading bytes, not by their names, so that a
 * camera's odd extension or a renamed file is still proved and a text file named {@code .jpg} is not.
 */
public final class MediaSniffer {
    /** How many leading bytes {@link #sniff(byte[], int)} needs at most. */
    public static final int HEAD_LENGTH = 576;

    private MediaSniffer() {}

    /**
     * Reads the first bytes of a file and recognises its format.
     *
     * @return the format, or empty if this is not a media file we know
     * @throws IOException if the file cannot be read
     */
    public static Optional<MediaType> sniff(Path file) throws IOException {
        byte[] head = new byte[HEAD_LENGTH];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        return sniff(head, n);
    }

    /**
     * Recognises a format from a file's leading bytes.
     *
     * @param head the leading bytes
     * @param length how many of them are valid
     * @return the format, or empty if unknown
     */
    public static Optional<MediaType> sniff(byte[] head, int length) {
        Bytes b = new Bytes(head, Math.min(length, head.length));
        if (b.at(0, 0xFF, 0xD8, 0xFF)) {
            return image("image/jpeg");
        }
        if (b.at(0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return image("image/png");
        }
        if (b.ascii(0, "GIF87a") || b.ascii(0, "GIF89a")) {
            return image("image/gif");
        }
        if (b.at(0, 'I', 'I', 0x2A, 0x00) || b.at(0, 'M', 'M', 0x00, 0x2A)) {
            return image("image/tiff");
        }
        if (b.at(0, 'I', 'I', 'R', 'O') || b.at(0, 'I', 'I', 'U', 0x00)) {
            return image("image/x-raw");
        }
        if (b.ascii(0, "BM") && length >= 26 && b.u8(14) >= 12 && b.u8(15) == 0) {
            return image("image/bmp");
        }
        if (b.ascii(0, "RIFF") && length >= 12) {
            return riff(b);
        }
        if (b.ascii(4, "ftyp") && length >= 12) {
            return isoBaseMedia(b);
        }
        if (length >= 16 && (b.ascii(4, "moov") || b.ascii(4, "wide") && b.u8(3) == 8 || b.ascii(4, "mdat") && b.ascii(12, "moov"))) {
            return video("video/quicktime"); // QuickTime before ftyp existed: its first box is moov, or wide (8 bytes), or mdat
        }
        if (b.at(0, 0x1A, 0x45, 0xDF, 0xA3)) {
            return b.contains("webm") ? video("video/webm") : video("video/x-matroska");
        }
        if (b.ascii(0, "FORM") && b.ascii(8, "AIFF") || b.ascii(0, "FORM") && b.ascii(8, "AIFC")) {
            return audio("audio/aiff");
        }
        if (b.ascii(0, "OggS")) {
            return b.contains("theora") ? video("video/ogg") : audio("audio/ogg");
        }
        if (b.ascii(0, "fLaC")) {
            return audio("audio/flac");
        }
        if (b.ascii(0, "ID3")) {
            return audio("audio/mpeg");
        }
        if (b.ascii(0, "#!AMR")) {
            return audio("audio/amr");
        }
        if (b.at(0, 0x00, 0x00, 0x01, 0xBA) || b.at(0, 0x00, 0x00, 0x01, 0xB3)) {
            return video("video/mpeg");
        }
        if (length >= 565 && b.u8(0) == 0x47 && b.u8(188) == 0x47 && b.u8(376) == 0x47 && b.u8(564) == 0x47) {
            return video("video/mp2t");
        }
        if (length >= 2 && b.u8(0) == 0xFF && (b.u8(1) & 0xF6) == 0xF0) {
            return audio("audio/aac");
        }
        if (length >= 2 && b.u8(0) == 0xFF && (b.u8(1) & 0xE0) == 0xE0 && (b.u8(1) & 0x06) != 0) {
            return audio("audio/mpeg");
        }
        return Optional.empty();
    }

    private static Optional<MediaType> riff(Bytes b) {
        if (b.ascii(8, "WEBP")) {
            return image("image/webp");
        }
        if (b.ascii(8, "WAVE")) {
            return audio("audio/wav");
        }
        if (b.ascii(8, "AVI ")) {
            return video("video/x-msvideo");
        }
        return Optional.empty();
    }

    private static Optional<MediaType> isoBaseMedia(Bytes b) {
        String brand = b.text(8, 4);
        switch (brand) {
            case "heic": case "heix": case "heim": case "heis": case "mif1": case "msf1":
                return image("image/heic");
            case "avif": case "avis":
                return image("image/avif");
            case "crx ":
                return image("image/x-canon-cr3");
            case "M4A ": case "M4B ": case "F4A ":
                return audio("audio/mp4");
            case "qt  ":
                return video("video/quicktime");
            default:
                if (brand.startsWith("3g")) {
                    return video("video/3gpp");
                }
                return video("video/mp4");
        }
    }

    private static Optional<MediaType> image(String mime) {
        return Optional.of(new MediaType(MediaKind.IMAGE, mime));
    }

    private static Optional<MediaType> video(String mime) {
        return Optional.of(new MediaType(MediaKind.VIDEO, mime));
    }

    private static Optional<MediaType> audio(String mime) {
        return Optional.of(new MediaType(MediaKind.AUDIO, mime));
    }

    /** Bounds-checked reads over the leading bytes. */
    private record Bytes(byte[] data, int length) {
        int u8(int i) {
            return i < length ? data[i] & 0xFF : -1;
        }

        boolean at(int offset, int... expected) {
            if (offset + expected.length > length) {
                return false;
            }
            for (int i = 0; i < expected.length; i++) {
                if ((data[offset + i] & 0xFF) != expected[i]) {
                    return false;
                }
            }
            return true;
        }

        boolean ascii(int offset, String expected) {
            return text(offset, expected.length()).equals(expected);
        }

        String text(int offset, int count) {
            if (offset + count > length) {
                return "";
            }
            return new String(data, offset, count, StandardCharsets.ISO_8859_1);
        }

        boolean contains(String needle) {
            return new String(data, 0, length, StandardCharsets.ISO_8859_1).contains(needle);
        }
    }
}
