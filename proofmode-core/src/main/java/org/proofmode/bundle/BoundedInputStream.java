// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Fails with an {@link IOException} once more than a set number of bytes have been read. */
final class BoundedInputStream extends FilterInputStream {
    private final long limit;
    private final String name;
    private long count;

    BoundedInputStream(InputStream in, long limit, String name) {
        super(in);
        this.limit = limit;
        this.name = name;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    private void count(long n) throws IOException {
        count += n;
        if (count > limit) {
            throw new LimitExceededException(name + " inflates beyond its bound (" + limit + " bytes): a decompression bomb?");
        }
    }
}
