// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.operator.PGPDigestCalculator;
import org.bouncycastle.openpgp.operator.PGPDigestCalculatorProvider;

/**
 * Digest calculators that collect small writes into large ones before they reach the digest.
 *
 * <p>BouncyCastle derives a key from a passphrase (the iterated and salted S2K) by writing the salt and
 * the passphrase to the digest a few bytes at a time, millions of bytes in all; a hardware-accelerated
 * SHA-256 then spends its time in per-call overhead. Buffered, the same bytes reach the digest in 64 KiB
 * pieces and the derivation takes milliseconds. The result is unchanged: only the chunking differs.
 *
 * <p>Security: the buffer holds passphrase bytes; it is zeroed whenever a digest is finished or reset.
 */
final class BufferedDigestCalculators implements PGPDigestCalculatorProvider {
    private static final int BUFFER = 64 * 1024;

    private final PGPDigestCalculatorProvider delegate;

    BufferedDigestCalculators(PGPDigestCalculatorProvider delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public PGPDigestCalculator get(int algorithm) throws PGPException {
        return new Buffered(delegate.get(algorithm));
    }

    private static final class Buffered implements PGPDigestCalculator {
        private final PGPDigestCalculator digest;
        private final WipingBuffer buffer;

        Buffered(PGPDigestCalculator digest) {
            this.digest = digest;
            this.buffer = new WipingBuffer(digest.getOutputStream());
        }

        @Override
        public int getAlgorithm() {
            return digest.getAlgorithm();
        }

        @Override
        public OutputStream getOutputStream() {
            return buffer;
        }

        @Override
        public byte[] getDigest() {
            try {
                buffer.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                buffer.wipe();
            }
            return digest.getDigest();
        }

        @Override
        public void reset() {
            buffer.wipe();
            digest.reset();
        }
    }

    private static final class WipingBuffer extends BufferedOutputStream {
        WipingBuffer(OutputStream out) {
            super(out, BUFFER);
        }

        void wipe() {
            Arrays.fill(buf, (byte) 0);
            count = 0;
        }
    }
}
