// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The exact duration of a WAV file: the size of its {@code data} chunk over the byte rate of its
 * {@code fmt } chunk, found by walking the chunk headers (metadata-extractor rounds it to seconds).
 */
public final class Riff {
    private static final int MAX_CHUNKS = 1000;

    private Riff() {}

    public static Optional<Double> wavDuration(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            if (ch.read(head, 0) != 12 || head.getInt(0) != 0x46464952 || head.getInt(8) != 0x45564157) { // RIFF, WAVE
                return Optional.empty();
            }
            long pos = 12;
            long byteRate = 0;
            long size = ch.size();
            for (int i = 0; i < MAX_CHUNKS && pos + 8 <= size; i++) {
                ByteBuffer h = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
                ch.read(h, pos);
                int id = h.getInt(0);
                long len = Integer.toUnsignedLong(h.getInt(4));
                if (id == 0x20746d66 && len >= 12) { // "fmt "
                    byteRate = Integer.toUnsignedLong(h.getInt(16)); // header, format, channels, sample rate, then byte rate
                } else if (id == 0x61746164) { // "data"
                    long data = Math.min(len, size - pos - 8);
                    return byteRate > 0 ? Optional.of((double) data / byteRate) : Optional.empty();
                }
                pos += 8 + len + (len & 1);
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
