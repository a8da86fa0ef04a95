// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.proofmode.media.JpegSegments;

/** Positional reads from a file or an array: what the container readers walk. */
interface ByteSource extends JpegSegments.Source, AutoCloseable {

    @Override
    void close() throws IOException;

    /** Reads {@code len} bytes at {@code pos} into a new array. */
    default byte[] read(long pos, int len) throws IOException {
        byte[] b = new byte[len];
        read(pos, b, 0, len);
        return b;
    }

    static ByteSource of(byte[] bytes) {
        return new ByteSource() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public void read(long pos, byte[] dst, int off, int len) throws IOException {
                if (pos < 0 || len < 0 || pos + len > bytes.length) {
                    throw new EOFException("read past the end at " + pos);
                }
                System.arraycopy(bytes, (int) pos, dst, off, len);
            }

            @Override
            public void close() {
                // nothing to release
            }
        };
    }

    /**
     * A source over a stream that can be opened again: reads forward skip, a read behind the last one
     * opens the stream anew. For entries of an archive, which cannot be read at an offset.
     */
    static ByteSource of(C2paReader.Opener opener, long size) {
        return new ByteSource() {
            private InputStream in;
            private long at;

            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long pos, byte[] dst, int off, int len) throws IOException {
                if (pos < 0 || len < 0 || pos + len > size) {
                    throw new EOFException("read past the end at " + pos);
                }
                if (in == null || pos < at) {
                    close();
                    in = new BufferedInputStream(opener.open());
                    at = 0;
                }
                in.skipNBytes(pos - at);
                at = pos;
                if (in.readNBytes(dst, off, len) != len) {
                    throw new EOFException("read past the end at " + pos);
                }
                at += len;
            }

            @Override
            public void close() throws IOException {
                if (in != null) {
                    InputStream s = in;
                    in = null;
                    s.close();
                }
            }
        };
    }

    static ByteSource of(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        return new ByteSource() {
            @Override
            public long size() throws IOException {
                return ch.size();
            }

            @Override
            public void read(long pos, byte[] dst, int off, int len) throws IOException {
                ByteBuffer bb = ByteBuffer.wrap(dst, off, len);
                long p = pos;
                while (bb.hasRemaining()) {
                    int n = ch.read(bb, p);
                    if (n < 0) {
                        throw new EOFException("read past the end at " + p);
                    }
                    p += n;
                }
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }
}
