// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.proof.ContextFields;
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

    private FrameList() {}

    /** A frame list read, or why it could not be. */
    private record Read(Optional<Frames> frames, String problem) {}

    /** The frames of a well-formed list; empty if it is malformed. */
    static Optional<Frames> parse(byte[] list) {
        return read(list).frames();
    }

    private static Read read(byte[] list) {
        String timeBase = "?";
        boolean header = false;
        boolean inSeconds = false;
        Frames.Builder frames = new Frames.Builder();
        String[] lines = new String(list, StandardCharsets.US_ASCII).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty() && i == lines.length - 1) {
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
                    return new Read(Optional.empty(), "line " + (i + 1) + " is not 'second,phash' for second " + s);
                }
                frames.second(Long.parseUnsignedLong(f[1], 16));
                continue;
            }
            int n = frames.count();
            if (f.length != 3 || !f[0].equals(Integer.toString(n)) || !f[1].matches("-?[0-9]{1,18}") || !Hex.isSha256(f[2])) {
                return new Read(Optional.empty(), "line " + (i + 1) + " is not 'index,pts,sha256' for frame " + n);
            }
            frames.add(Long.parseLong(f[1]), HexFormat.of().parseHex(f[2]));
        }
        if (!header) {
            return new Read(Optional.empty(), "no '" + HEADER + "' header");
        }
        if (frames.count() == 0) {
            return new Read(Optional.empty(), "no frame");
        }
        return new Read(Optional.of(frames.build(timeBase)), "");
    }

    static Check check(String name, byte[] list, ProofRecord record) {
        Optional<String> recorded = record.get(ContextFields.VIDEO_FRAME_HASH);
        if (recorded.isEmpty()) {
            return new Check(CheckCodes.FRAMES_MISMATCH, Status.FAIL, name, "a frame list for a proof that records no Video.FrameHash");
        }
        Read read = read(list);
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
