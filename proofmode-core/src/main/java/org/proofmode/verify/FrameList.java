// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.proofmode.media.Digests;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.Hex;

/**
 * Checks a video's frame list ({@code <h>.frames}: comment lines, the header {@code index,pts,sha256},
 * then one line per frame) against the record it belongs to: the SHA-256 over its frame digests, in order,
 * must be the record's {@code Video.FrameHash}, and the number of frames its {@code Video.FrameCount}.
 */
final class FrameList {
    private static final String HEADER = "index,pts,sha256";

    private FrameList() {}

    static Check check(String name, byte[] list, ProofRecord record) {
        Optional<String> recorded = record.get(ContextFields.VIDEO_FRAME_HASH);
        if (recorded.isEmpty()) {
            return new Check(CheckCodes.FRAMES_MISMATCH, Status.FAIL, name, "a frame list for a proof that records no Video.FrameHash");
        }
        MessageDigest md = Digests.newSha256();
        long frames = 0;
        boolean header = false;
        String[] lines = new String(list, StandardCharsets.US_ASCII).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty() && i == lines.length - 1 || line.startsWith("#")) {
                continue;
            }
            if (!header) {
                if (!line.equals(HEADER)) {
                    return malformed(name, "no '" + HEADER + "' header");
                }
                header = true;
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != 3 || !f[0].equals(Long.toString(frames)) || !f[1].matches("-?[0-9]{1,19}") || !Hex.isSha256(f[2])) {
                return malformed(name, "line " + (i + 1) + " is not 'index,pts,sha256' for frame " + frames);
            }
            md.update(HexFormat.of().parseHex(f[2]));
            frames++;
        }
        if (!header) {
            return malformed(name, "no '" + HEADER + "' header");
        }
        String hash = Hex.encode(md.digest());
        String count = Long.toString(frames);
        Optional<String> recordedCount = record.get(ContextFields.VIDEO_FRAME_COUNT);
        if (!hash.equalsIgnoreCase(recorded.get()) || recordedCount.isPresent() && !recordedCount.get().equals(count)) {
            return new Check(CheckCodes.FRAMES_MISMATCH, Status.FAIL, name, "the frame list gives " + count + " frames hashing to "
                    + hash + "; the record says " + recordedCount.orElse("?") + " frames hashing to "
                    + recorded.get());
        }
        return new Check(CheckCodes.FRAMES_MATCH, Status.PASS, name, count + " frames whose digests hash to the record's Video.FrameHash");
    }

    private static Check malformed(String name, String why) {
        return new Check(CheckCodes.FRAMES_MALFORMED, Status.FAIL, name, why);
    }
}
