// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ProcessResult;

/**
 * A share bundle holding 1 GiB of media verifies in a JVM limited to a 64 MiB heap: the media is
 * streamed out of the zip once, never held in memory.
 */
class LargeBundleIT {
    private static final long SIZE = 1L << 30;

    @TempDir
    Path dir;

    @Test
    void verify_exits0WithSmallHeap_bundleWithOneGibMedia() throws Exception {
        Path media = dir.resolve("long-video.jpg");
        try (RandomAccessFile f = new RandomAccessFile(media.toFile(), "rw")) {
            f.setLength(SIZE);
            f.write(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0});
            f.seek(SIZE / 2);
            f.write("middle".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        List<String> smallHeap = List.of("-Xmx64m", "-XX:+UseSerialGC");
        ProcessResult proved = pm.runJvm(smallHeap, Duration.ofMinutes(5), "prove", media.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        Path zip = dir.resolve("share.zip");
        ProcessResult exported = pm.runJvm(smallHeap, Duration.ofMinutes(5), "export", "--with-media", "-o", zip.toString(), media.toString());
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        assertThat(Files.size(zip)).isGreaterThan(SIZE);
        Files.delete(media);

        ProcessResult verified = pm.runJvm(smallHeap, Duration.ofMinutes(5), "verify", zip.toString());

        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("PASS  media.hash.match", "PASS  signature.media.valid");
    }
}
