// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads the ID3v2 tag at the start of an MP3 file, which metadata-extractor's MP3 reader neither reads
 * nor expects: the text frames of ID3v2.3 and v2.4 that say what the recording is (title, artist,
 * album, date, encoder) become {@code Audio.*} fields; every other frame (pictures, comments) is
 * skipped unread. A tag that is unsynchronised as a whole, or of version 2.2, is skipped.
 *
 * <p>Security: frames are read only within the tag's declared size, and a text frame only up to
 * {@value #MAX_TEXT} bytes.
 */
public final class Id3 {
    static final int MAX_TEXT = 4096;

    private static final Map<String, String> FIELDS = Map.of(
            "TIT2", "Audio.Title", "TPE1", "Audio.Artist", "TALB", "Audio.Album",
            "TDRC", "Audio.DateCreated", "TYER", "Audio.DateCreated", "TSSE", "Audio.Software");

    private Id3() {}

    /**
     * Reads the tag if the stream starts with one, putting its text fields in {@code fields}; leaves the
     * stream where it was otherwise.
     *
     * @param in a stream that supports mark and reset
     * @param fields where {@code Audio.Title} and the like go
     * @return bytes consumed: the whole tag, so the stream is at the first audio frame
     * @throws IOException if the stream ends inside the tag
     */
    public static long readTag(InputStream in, Map<String, String> fields) throws IOException {
        in.mark(10);
        byte[] h = in.readNBytes(10);
        if (h.length < 10 || h[0] != 'I' || h[1] != 'D' || h[2] != '3' || ((h[6] | h[7] | h[8] | h[9]) & 0x80) != 0) {
            in.reset();
            return 0;
        }
        int major = h[3];
        long size = syncsafe(h, 6);
        long consumed = 0;
        if ((major == 3 || major == 4) && (h[5] & 0x80) == 0) {
            if ((h[5] & 0x40) != 0) {
                byte[] ext = in.readNBytes(4);
                long extSize = major == 4 ? syncsafe(ext, 0) - 4 : be(ext, 0);
                in.skipNBytes(Math.max(0, Math.min(extSize, size - 4)));
                consumed = 4 + Math.max(0, Math.min(extSize, size - 4));
            }
            consumed += frames(in, major, size - consumed, fields);
        }
        in.skipNBytes(size - consumed);
        return 10 + size + ((h[5] & 0x10) != 0 ? skipFooter(in) : 0);
    }

    /** Reads frames until padding or the end of {@code left} bytes; returns the bytes read. */
    private static long frames(InputStream in, int major, long left, Map<String, String> fields) throws IOException {
        long read = 0;
        while (read + 10 <= left) {
            byte[] fh = in.readNBytes(10);
            if (fh.length < 10) {
                throw new EOFException("the ID3 tag ends inside a frame header");
            }
            read += 10;
            if (fh[0] == 0) {
                return read; // padding
            }
            String id = new String(fh, 0, 4, StandardCharsets.ISO_8859_1);
            long frameSize = major == 4 ? syncsafe(fh, 4) : be(fh, 4);
            if (frameSize < 0 || read + frameSize > left) {
                return read;
            }
            String field = FIELDS.get(id);
            if (field != null && frameSize > 1 && frameSize <= MAX_TEXT && fh[9] == 0) {
                String text = text(in.readNBytes((int) frameSize));
                if (!text.isEmpty()) {
                    fields.putIfAbsent(field, text);
                }
            } else {
                in.skipNBytes(frameSize);
            }
            read += frameSize;
        }
        return read;
    }

    /** A text frame's body: an encoding byte, then one or more values separated by NUL. */
    private static String text(byte[] body) {
        Charset cs = switch (body[0]) {
            case 1 -> StandardCharsets.UTF_16;
            case 2 -> StandardCharsets.UTF_16BE;
            case 3 -> StandardCharsets.UTF_8;
            default -> StandardCharsets.ISO_8859_1;
        };
        String all = new String(body, 1, body.length - 1, cs).replace("\uFEFF", "");
        return Arrays.stream(all.split("\u0000")).map(TagText::clean).filter(v -> !v.isEmpty())
                .collect(Collectors.joining("/"));
    }

    private static long skipFooter(InputStream in) throws IOException {
        in.skipNBytes(10);
        return 10;
    }

    private static long syncsafe(byte[] b, int at) {
        return ((b[at] & 0x7fL) << 21) | ((b[at + 1] & 0x7fL) << 14) | ((b[at + 2] & 0x7fL) << 7) | (b[at + 3] & 0x7fL);
    }

    private static long be(byte[] b, int at) {
        return ((b[at] & 0xffL) << 24) | ((b[at + 1] & 0xffL) << 16) | ((b[at + 2] & 0xffL) << 8) | (b[at + 3] & 0xffL);
    }
}
