// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * The one walk of a JPEG's marker segments, from its start-of-image marker (SOI) to its image data (SOS)
 * or its end (EOI), reading only the segment headers (as metadata-extractor's {@code JpegSegmentReader}):
 * a reader asks for the markers it wants and is handed each such segment's marker, offset and length, and
 * reads the payload itself if it needs it. Fill bytes (0xFF before a marker) are skipped, markers without a
 * length (TEM, RST0–RST7) are segments of length 0, and reads only ever go forward.
 *
 * <p>Security: every length is read from untrusted bytes and checked against the file's size before
 * anything after it is read; the walk never reads past the end, stops after a given number of markers,
 * and ends a damaged chain with an {@link End} saying where, never with an exception of its own.
 */
public final class JpegSegments {
    /** TEM, a marker without a length. */
    public static final int TEM = 0x01;
    /** Start of scan: the image data follows. */
    public static final int SOS = 0xDA;
    /** End of image. */
    public static final int EOI = 0xD9;
    /** The APP11 segments that carry a C2PA manifest store (JPEG XT boxes). */
    public static final int APP11 = 0xEB;

    private JpegSegments() {}

    /** Positional reads: what the walk reads through. */
    public interface Source {
        /** The total length. */
        long size() throws IOException;

        /** Reads exactly {@code len} bytes at {@code pos}; fails with an {@link EOFException} past the end. */
        void read(long pos, byte[] dst, int off, int len) throws IOException;

        /** A source over an open file; the file's size is taken once, now. */
        static Source of(FileChannel ch) throws IOException {
            long size = ch.size();
            return new Source() {
                @Override
                public long size() {
                    return size;
                }

                @Override
                public void read(long pos, byte[] dst, int off, int len) throws IOException {
                    ByteBuffer b = ByteBuffer.wrap(dst, off, len);
                    while (b.hasRemaining()) {
                        if (ch.read(b, pos + b.position() - off) < 0) {
                            throw new EOFException("read past the end at " + pos);
                        }
                    }
                }
            };
        }
    }

    /**
     * One segment.
     *
     * @param marker the marker's second byte (0xE1 for APP1…)
     * @param offset where the marker's 0xFF is, after any fill bytes
     * @param length the length field (which counts itself, so the segment is {@code 2 + length} bytes
     *     from {@code offset}); 0 for a marker without a length
     * @param fillFrom where the fill bytes before the marker start; {@code offset} if there are none
     */
    public record Segment(int marker, long offset, int length, long fillFrom) {
        /** Where the payload starts: after the marker and the length field. */
        public long payload() {
            return offset + 4;
        }

        /** Where the next marker (or its fill bytes) starts. */
        public long end() {
            return offset + 2 + length;
        }
    }

    /** What a reader does with a segment it asked for. */
    @FunctionalInterface
    public interface Visitor<E extends Exception> {
        /**
         * Reads a segment.
         *
         * @return whether the walk goes on
         * @throws E as the reader documents; the walk ends with it
         */
        boolean segment(Segment segment) throws IOException, E;
    }

    /** How a walk ended. Only the first two are a whole chain. */
    public enum End {
        /** At the start-of-scan marker: the image data follows. */
        IMAGE_DATA,
        /** At the end-of-image marker. */
        END_OF_IMAGE,
        /** A visitor stopped it. */
        STOPPED,
        /** The file does not start with SOI. */
        NO_START_OF_IMAGE,
        /** The file ends between two segments. */
        ENDS_BETWEEN_SEGMENTS,
        /** The file ends among fill bytes, before a marker's second byte. */
        ENDS_IN_MARKER,
        /** The file ends before a segment's length field is whole. */
        ENDS_IN_LENGTH,
        /** A segment's length runs past the end of the file. */
        RUNS_PAST_END,
        /** Where a marker must be there is none (or only 0xFF 0x00). */
        NOT_A_MARKER,
        /** A length field below 2. */
        BAD_LENGTH,
        /** More markers than the walk was allowed. */
        TOO_MANY_SEGMENTS;

        /** Whether the walk reached the image data or the end of image. */
        public boolean whole() {
            return this == IMAGE_DATA || this == END_OF_IMAGE;
        }
    }

    /**
     * How a walk ended.
     *
     * @param end why it ended
     * @param at the byte it ended at: the SOS or EOI marker's 0xFF, or where the damage was found
     * @param segmentAt the start (first fill byte or 0xFF) of the segment the damage is in; {@code at} when
     *     the damage is not inside a segment
     * @param length the offending length field, for {@link End#BAD_LENGTH}; 0 otherwise
     * @param markers how many markers were read, the last one included
     */
    public record Walk(End end, long at, long segmentAt, int length, int markers) {
        /** Validates the fields. */
        public Walk {
            Objects.requireNonNull(end, "end");
        }
    }

    /**
     * Walks the segments.
     *
     * @param src the JPEG
     * @param maxMarkers the most markers read before the walk ends with {@link End#TOO_MANY_SEGMENTS}
     * @param wanted the markers {@code visitor} is handed (SOS and EOI end the walk and are never handed)
     * @param visitor the reader
     * @return how the walk ended
     * @throws IOException if reading fails
     * @throws E if the visitor throws it
     */
    public static <E extends Exception> Walk walk(Source src, int maxMarkers, IntPredicate wanted, Visitor<E> visitor)
            throws IOException, E {
        long size = src.size();
        byte[] b = new byte[2];
        if (size < 2) {
            return new Walk(End.NO_START_OF_IMAGE, 0, 0, 0, 0);
        }
        src.read(0, b, 0, 2);
        if ((b[0] & 0xFF) != 0xFF || (b[1] & 0xFF) != 0xD8) {
            return new Walk(End.NO_START_OF_IMAGE, 0, 0, 0, 0);
        }
        return walkFrom(src, 2, maxMarkers, wanted, visitor);
    }

    /**
     * Walks the segments from {@code from} on, as {@link #walk} does after SOI: where a scan's image data ends
     * ({@link #imageDataEnd}), for the markers between scans and the end of image.
     *
     * @param src the JPEG
     * @param from where a marker (or its fill bytes) starts
     * @param maxMarkers the most markers read before the walk ends with {@link End#TOO_MANY_SEGMENTS}
     * @param wanted the markers {@code visitor} is handed (SOS and EOI end the walk and are never handed)
     * @param visitor the reader
     * @return how the walk ended
     * @throws IOException if reading fails
     * @throws E if the visitor throws it
     */
    public static <E extends Exception> Walk walkFrom(Source src, long from, int maxMarkers, IntPredicate wanted, Visitor<E> visitor)
            throws IOException, E {
        long size = src.size();
        byte[] b = new byte[2];
        long pos = from;
        for (int markers = 0;; markers++) {
            if (markers >= maxMarkers) {
                return new Walk(End.TOO_MANY_SEGMENTS, pos, pos, 0, markers);
            }
            if (pos >= size) {
                return new Walk(End.ENDS_BETWEEN_SEGMENTS, pos, pos, 0, markers);
            }
            long first = pos;
            if (byteAt(src, pos, b) != 0xFF) {
                return new Walk(End.NOT_A_MARKER, pos, pos, 0, markers);
            }
            int type;
            do {
                if (++pos >= size) {
                    return new Walk(End.ENDS_IN_MARKER, pos, first, 0, markers);
                }
                type = byteAt(src, pos, b);
            } while (type == 0xFF);
            long offset = pos - 1;
            pos++;
            if (type == SOS || type == EOI) {
                return new Walk(type == SOS ? End.IMAGE_DATA : End.END_OF_IMAGE, offset, first, 0, markers + 1);
            }
            if (type == 0x00) {
                return new Walk(End.NOT_A_MARKER, first, first, 0, markers + 1);
            }
            int length = 0;
            if (type != TEM && (type < 0xD0 || type > 0xD7)) {
                if (pos + 2 > size) {
                    return new Walk(End.ENDS_IN_LENGTH, pos, first, 0, markers + 1);
                }
                src.read(pos, b, 0, 2);
                length = ((b[0] & 0xFF) << 8) | (b[1] & 0xFF);
                if (length < 2) {
                    return new Walk(End.BAD_LENGTH, first, first, length, markers + 1);
                }
                if (offset + 2 + length > size) {
                    return new Walk(End.RUNS_PAST_END, first, first, length, markers + 1);
                }
            }
            Segment s = new Segment(type, offset, length, first);
            if (wanted.test(type) && !visitor.segment(s)) {
                return new Walk(End.STOPPED, offset, first, 0, markers + 1);
            }
            pos = s.end();
        }
    }

    /**
     * Where the entropy-coded image data that starts at {@code from} (after an SOS segment) ends: at the first
     * marker that is neither a stuffed 0xFF 0x00 nor a restart marker (RST0–RST7), or at the end of the file.
     *
     * @throws IOException if reading fails
     */
    public static long imageDataEnd(Source src, long from) throws IOException {
        long size = src.size();
        byte[] buf = new byte[64 * 1024];
        byte[] one = new byte[1];
        for (long p = from; p < size; ) {
            int n = (int) Math.min(buf.length, size - p);
            src.read(p, buf, 0, n);
            for (int i = 0; i < n; i++) {
                if ((buf[i] & 0xFF) == 0xFF) {
                    if (p + i + 1 >= size) {
                        return size;
                    }
                    int next = i + 1 < n ? buf[i + 1] & 0xFF : byteAt(src, p + i + 1, one);
                    if (next != 0x00 && (next < 0xD0 || next > 0xD7)) {
                        return p + i;
                    }
                }
            }
            p += n;
        }
        return size;
    }

    private static int byteAt(Source src, long pos, byte[] b) throws IOException {
        src.read(pos, b, 0, 1);
        return b[0] & 0xFF;
    }
}
