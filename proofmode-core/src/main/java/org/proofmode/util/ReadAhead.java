// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a channel on a second thread into a few reused direct buffers, so that copying from the
 * operating system overlaps with whatever the caller does with each block (hashing). Memory is fixed:
 * {@code buffers × bufferSize} bytes, whatever the length of the input.
 */
public final class ReadAhead {
    /** Receives each block in order. */
    @FunctionalInterface
    public interface Consumer {
        /** Handles one block; the buffer is reused after this returns. */
        void accept(ByteBuffer block);
    }

    private static final ByteBuffer END = ByteBuffer.allocate(0);

    private ReadAhead() {}

    /**
     * Reads {@code in} to its end, passing each block to {@code consumer} on the calling thread.
     *
     * @return the number of bytes read
     * @throws IOException if reading fails (the reader thread's exception)
     */
    public static long read(ReadableByteChannel in, int buffers, int bufferSize, Consumer consumer) throws IOException {
        BlockingQueue<ByteBuffer> empty = new ArrayBlockingQueue<>(buffers);
        BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(buffers + 1);
        for (int i = 0; i < buffers; i++) {
            empty.add(ByteBuffer.allocateDirect(bufferSize));
        }
        IOException[] failure = new IOException[1];
        Thread reader = new Thread(() -> {
            try {
                while (true) {
                    ByteBuffer b = empty.take();
                    b.clear();
                    if (in.read(b) < 0) {
                        break;
                    }
                    b.flip();
                    full.put(b);
                }
            } catch (IOException e) {
                failure[0] = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                full.offer(END);
            }
        }, "read-ahead");
        reader.setDaemon(true);
        reader.start();
        long total = 0;
        try {
            while (true) {
                ByteBuffer b = full.take();
                if (b == END) {
                    break;
                }
                total += b.remaining();
                consumer.accept(b);
                empty.put(b);
            }
            reader.join();
        } catch (InterruptedException e) {
            reader.interrupt();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading");
        } finally {
            if (reader.isAlive()) {
                reader.interrupt();
            }
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        return total;
    }
}
