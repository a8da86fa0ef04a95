// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Checks the chain of a JPEG's marker segments from its start to the image data (SOS) or its end (EOI),
 * with {@link JpegSegments}, which reads only the segment headers. A file whose chain breaks before that
 * is not a well-formed JPEG: metadata readers that search on through it take random bytes for segments (and would record an image
 * size read from noise), and decoders fail on it anyway.
 */
public final class JpegStructure {
    /** More segments than any real JPEG has before its image data. */
    static final int MAX_SEGMENTS = 4096;

    private JpegStructure() {}

    /**
     * Checks the segment chain.
     *
     * @param file a file that starts with the JPEG start-of-image marker
     * @return where and how the chain breaks; empty if it reaches the image data or the end-of-image marker
     * @throws IOException if the file cannot be read
     */
    public static Optional<String> problem(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            JpegSegments.Walk w = JpegSegments.walk(JpegSegments.Source.of(ch), MAX_SEGMENTS, m -> false, s -> true);
            return Optional.ofNullable(switch (w.end()) {
                case IMAGE_DATA, END_OF_IMAGE, STOPPED -> null;
                case NO_START_OF_IMAGE -> "it does not start with a JPEG start-of-image marker";
                case ENDS_BETWEEN_SEGMENTS -> "it ends at byte " + w.at() + " before its image data";
                case ENDS_IN_MARKER -> "it ends at byte " + w.at() + " inside a segment marker";
                case ENDS_IN_LENGTH -> "it ends at byte " + w.at() + " inside the segment at byte " + w.segmentAt();
                case NOT_A_MARKER -> "no segment marker at byte " + w.at();
                case BAD_LENGTH -> "the segment at byte " + w.segmentAt() + " has an impossible length " + w.length();
                case RUNS_PAST_END -> "the segment at byte " + w.segmentAt() + " runs past the end of the file";
                case TOO_MANY_SEGMENTS -> "more than " + MAX_SEGMENTS + " segments before its image data";
            });
        }
    }
}
