// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.Hex;

/**
 * Reads a video's frame list ({@code <h>.frames}: comment lines, the header {@code index,pts,sha256},
 * then one line per frame; then, in lists made since they were added, the header {@code second,phash} and
 * one perceptual hash per second of playing time) and checks it against the record it belongs to: the SHA-256 over its frame
 * digests, in order, must be the record's {@code Video.FrameHash}, and the number of frames its
 * {@code Video.FrameCount}.
 */
final class FrameList {
    private static final String HEADER = "index,pts,sha256";
    /** The time base, from the comment line the prover writes: "... pts in 1/25 s; ...". */
    private static final Pattern TIME_BASE = Pattern.compile("pts in ([0-9]{1,9}/[0-9]{1,10}) s");

    /**
     * The most bytes of a frame list read when the media's size is not known: 64 MiB, about 700,000 frames
     * (6.5 hours at 30 frames a second). With the record's {@code File.Size}, the bound is
     * {@link Frames#maxListBytes}: the largest list the prover writes for media of that size, never less
     * than this. A list is read line by line into compact arrays (40 bytes a frame), never whole into memory.
     */
    static final long MAX_BYTES = 64L << 20;
    /** How the problem of a list longer than {@link #MAX_BYTES} begins. */
    static final String TOO_LARGE = "the frame list is larger than ";
    /** The longest line read; ours are under 100 characters, comments under 300. */
    private static final int MAX_LINE = 1024;

    private FrameList() {}

    /** A frame list read, or why it could not be. */
    record Read(Optional<Frames> frames, String problem, boolean tooLarge) {
        /** A list read to its end, well-formed or not. */
        Read(Optional<Frames> frames, String problem) {
            this(frames, problem, false);
        }
    }

    /** The frames of a well-formed list; empty if it is malformed. */
    static Optional<Frames> parse(byte[] list) {
        return read(list).frames();
    }

    static Read read(byte[] list) {
        return read(list, OptionalLong.empty());
    }

    /** Reads a list held in memory, for media of the given size if known. */
    static Read read(byte[] list, OptionalLong mediaBytes) {
        try {
            return read(new ByteArrayInputStream(list), mediaBytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from memory
        }
    }

    /** Reads a frame list from a stream, for media of unknown size: {@link #read(InputStream, OptionalLong)}. */
    static Read read(InputStream in) throws IOException {
        return read(in, OptionalLong.empty());
    }

    /** The most bytes of a frame list read for media of the given size, if known. */
    static long maxBytes(OptionalLong mediaBytes) {
        return mediaBytes.isPresent() ? Frames.maxListBytes(mediaBytes.getAsLong()) : MAX_BYTES;
    }

    /** The media's size as the record gives it ({@code File.Size}), if it does. */
    static OptionalLong mediaBytes(ProofRecord record) {
        Optional<String> size = record.get(ProofFields.FILE_SIZE).filter(v -> v.matches("[0-9]{1,18}"));
        return size.isPresent() ? OptionalLong.of(Long.parseLong(size.get())) : OptionalLong.empty();
    }

    /**
     * Reads a frame list from a stream, to its end or to the first problem, at most {@link #maxBytes} bytes
     * of it: any list the prover writes for media of that size is read to its end.
     *
     * @param mediaBytes the size of the media the list is of, if known
     * @throws IOException if reading fails
     */
    static Read read(InputStream in, OptionalLong mediaBytes) throws IOException {
        String timeBase = "?";
        boolean header = false;
        boolean inSeconds = false;
        Frames.Builder frames = new Frames.Builder();
        long limit = maxBytes(mediaBytes);
        Lines lines = new Lines(in, limit);
        for (String line = lines.next(); line != null; line = lines.next()) {
            int number = lines.number;
            if (line.length() > MAX_LINE) {
                return new Read(Optional.empty(), "line " + number + " is longer than " + MAX_LINE + " characters");
            }
            if (lines.tooLarge) {
                // The line that reached the bound is cut short, and nothing after it is read.
                return new Read(Optional.empty(), TOO_LARGE + limit + " bytes"
                        + (mediaBytes.isPresent() ? " (the most a " + mediaBytes.getAsLong() + "-byte video can have)" : ""), true);
            }
            if (line.isEmpty() && lines.last) {
                continue;
            }
            if (line.startsWith("#")) {
                Matcher m = TIME_BASE.matcher(line);
                if (m.find()) {
                    timeBase = m.group(1);
                }
                continue;
            }
            if (!header) {
                if (!line.equals(HEADER)) {
                    return new Read(Optional.empty(), "no '" + HEADER + "' header");
                }
                header = true;
                continue;
            }
            if (line.equals(Frames.SECONDS_HEADER) && !inSeconds) {
                inSeconds = true;
                continue;
            }
            String[] f = line.split(",", -1);
            if (inSeconds) {
                int s = frames.secondCount();
                if (f.length != 2 || !f[0].equals(Integer.toString(s)) || !f[1].matches("[0-9a-f]{16}")) {
                    return new Read(Optional.empty(), "line " + number + " is not 'second,phash' for second " + s);
                }
                if (s >= Frames.MAX_FRAMES) {
                    return new Read(Optional.empty(), TOO_LARGE + Frames.MAX_FRAMES + " seconds", true);
                }
                frames.second(Long.parseUnsignedLong(f[1], 16));
                continue;
            }
            int n = frames.count();
            if (f.length != 3 || !f[0].equals(Integer.toString(n)) || !f[1].matches("-?[0-9]{1,19}") || !Hex.isSha256(f[2])) {
                return new Read(Optional.empty(), "line " + number + " is not 'index,pts,sha256' for frame " + n);
            }
            if (n >= Frames.MAX_FRAMES) {
                return new Read(Optional.empty(), TOO_LARGE + Frames.MAX_FRAMES + " frames", true);
            }
            long pts;
            try {
                pts = Long.parseLong(f[1]);
            } catch (NumberFormatException e) {
                return new Read(Optional.empty(), "line " + number + " has a pts beyond 64 bits");
            }
            frames.add(pts, HexFormat.of().parseHex(f[2]));
        }
        if (!header) {
            return new Read(Optional.empty(), "no '" + HEADER + "' header");
        }
        if (frames.count() == 0) {
            return new Read(Optional.empty(), "no frame");
        }
        return new Read(Optional.of(frames.build(timeBase)), "");
    }

    /**
     * The lines of an ASCII stream split at '\n' (as {@code split("\n", -1)}: a final empty line after
     * the last '\n'), each cut at {@link #MAX_LINE} + 1 characters so that a line without end cannot fill
     * memory; what lies beyond the limit is not read.
     */
    private static final class Lines {
        private final InputStream in;
        private final long limit;
        private long total;
        private boolean eof;
        int number;
        /** Whether the line just read ended the stream (rather than a '\n'). */
        boolean last;
        /** Whether the stream went on past the limit; it then reads as ended there. */
        boolean tooLarge;

        Lines(InputStream in, long limit) {
            this.in = new BufferedInputStream(in, 1 << 16);
            this.limit = limit;
        }

        /** The next line, or null after the last. */
        String next() throws IOException {
            if (eof) {
                return null;
            }
            StringBuilder b = new StringBuilder();
            while (true) {
                int c = read();
                if (c == -1 || c == '\n') {
                    eof = c == -1;
                    last = eof;
                    number++;
                    return b.toString();
                }
                if (b.length() <= MAX_LINE) {
                    b.append((char) c);
                }
            }
        }

        private int read() throws IOException {
            int c = in.read();
            if (c >= 0 && ++total > limit) {
                tooLarge = true;
                return -1;
            }
            return c;
        }
    }

    static Check check(String name, byte[] list, ProofRecord record) {
        return check(name, read(list), record);
    }

    /** Checks a frame list read against the record it belongs to. */
    static Check check(String name, Read read, ProofRecord record) {
        Optional<String> recorded = record.get(ContextFields.VIDEO_FRAME_HASH);
        if (recorded.isEmpty()) {
            return new Check(CheckCodes.FRAMES_MISMATCH, Status.FAIL, name, "a frame list for a proof that records no Video.FrameHash");
        }
        if (read.frames().isEmpty()) {
            return new Check(CheckCodes.FRAMES_MALFORMED, Status.FAIL, name, read.problem());
        }
        Frames frames = read.frames().get();
        String hash = frames.frameHash();
        String count = Integer.toString(frames.count());
        Optional<String> recordedCount = record.get(ContextFields.VIDEO_FRAME_COUNT);
        if (!hash.equalsIgnoreCase(recorded.get()) || recordedCount.isPresent() && !recordedCount.get().equals(count)) {
            return new Check(CheckCodes.FRAMES_MISMATCH, Status.FAIL, name, "the frame list gives " + count + " frames hashing to "
                    + hash + "; the record says " + recordedCount.orElse("?") + " frames hashing to " + recorded.get());
        }
        return new Check(CheckCodes.FRAMES_MATCH, Status.PASS, name, count + " frames whose digests hash to the record's Video.FrameHash");
    }
}
