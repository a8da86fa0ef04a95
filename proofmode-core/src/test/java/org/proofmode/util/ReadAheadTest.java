// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.sign.StreamSigner;

class ReadAheadTest {
    @TempDir
    Path tmp;

    @Test
    void read_givesEveryByteInOrder_acrossManyBlocks() throws Exception {
        byte[] data = new byte[10 * 4096 + 123];
        new Random(1).nextBytes(data);
        Path f = Files.write(tmp.resolve("d"), data);
        MessageDigest md = Digests.newSha256();
        long n;
        try (FileChannel ch = FileChannel.open(f)) {
            n = ReadAhead.read(ch, 3, 4096, md::update);
        }
        assertThat(n).isEqualTo(data.length);
        assertThat(Hex.encode(md.digest())).isEqualTo(Hex.encode(Digests.newSha256().digest(data)));
    }

    @Test
    void read_rethrowsReaderFailure() {
        ReadableByteChannel failing = new ReadableByteChannel() {
            private int calls;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (++calls > 2) {
                    throw new IOException("disk went away");
                }
                dst.put((byte) 1);
                return 1;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        };
        assertThatThrownBy(() -> ReadAhead.read(failing, 2, 16, b -> b.position(b.limit())))
                .isInstanceOf(IOException.class).hasMessage("disk went away");
    }

    @Test
    void digest_matchesPlainSha256_forFileAboveReadAheadThreshold() throws Exception {
        Path f = tmp.resolve("big");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength((65L << 20) + 7);
            raf.seek(12345);
            raf.write(new byte[] {1, 2, 3});
        }
        String expected = Digests.sha256(f);
        try (FileChannel ch = FileChannel.open(f)) {
            assertThat(StreamSigner.digest(ch, StreamSigner.Progress.NONE).sha256()).isEqualTo(expected);
        }
    }
}
