// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/** Reads the OpenTimestamps wire format from bytes, with bounds on every length. */
final class OtsReader {
    /** Most bytes of all messages in one tree: a 1 MiB file must not grow into gigabytes of nodes. */
    static final long MESSAGE_BUDGET = 8L << 20;

    private final byte[] data;
    private int pos;
    private long messageBytes;

    OtsReader(byte[] data) {
        this.data = data;
    }

    int read() throws OtsFormatException {
        if (pos >= data.length) {
            throw new OtsFormatException("truncated at byte " + pos);
        }
        return data[pos++] & 0xFF;
    }

    byte[] read(int n) throws OtsFormatException {
        if (n < 0 || n > data.length - pos) {
            throw new OtsFormatException("truncated: wanted " + n + " bytes at byte " + pos);
        }
        byte[] out = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return out;
    }

    /** An unsigned LEB128 integer, at most 63 bits. */
    long readVaruint() throws OtsFormatException {
        long value = 0;
        int shift = 0;
        while (true) {
            int b = read();
            if (shift > 56) {
                throw new OtsFormatException("integer too large at byte " + pos);
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
            shift += 7;
        }
    }

    byte[] readVarbytes(int max) throws OtsFormatException {
        long n = readVaruint();
        if (n > max) {
            throw new OtsFormatException("field of " + n + " bytes exceeds " + max);
        }
        return read((int) n);
    }

    /**
     * Counts the bytes of one more message in the tree being read.
     *
     * @throws OtsFormatException once the tree holds more than {@link #MESSAGE_BUDGET} bytes of messages
     */
    void charge(int bytes) throws OtsFormatException {
        messageBytes += bytes;
        if (messageBytes > MESSAGE_BUDGET) {
            throw new OtsFormatException("messages in the tree exceed " + MESSAGE_BUDGET + " bytes");
        }
    }

    boolean atEnd() {
        return pos == data.length;
    }

    int position() {
        return pos;
    }

    static void writeVaruint(ByteArrayOutputStream out, long value) {
        long v = value;
        do {
            int b = (int) (v & 0x7F);
            v >>>= 7;
            out.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
    }

    static void writeVarbytes(ByteArrayOutputStream out, byte[] bytes) {
        writeVaruint(out, bytes.length);
        out.write(bytes, 0, bytes.length);
    }
}
