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
import org.proofmode.testkit.AgeTool;
import org.proofmode.testkit.ProcessResult;

/**
 * A share bundle with 256 MiB of media, encrypted with age as it is exported and verified with the
 * identity, in a JVM limited to a 64 MiB heap: encryption and decryption stream, never holding the bundle
 * in memory; Debian's age opens the same file.
 */
class LargeEncryptedBundleIT {
    private static final long SIZE = 256L << 20;

    @TempDir
    Path dir;

    @Test
    void exportEncryptedAndVerifyWithIdentity_exit0WithSmallHeap() throws Exception {
        Path media = dir.resolve("long-video.jpg");
        try (RandomAccessFile f = new RandomAccessFile(media.toFile(), "rw")) {
            f.setLength(SIZE);
            f.write(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0});
            f.seek(SIZE / 2);
            f.write("middle".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        Path identity = dir.resolve("desk.key");
        String recipient = AgeTool.keygen(identity);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        List<String> smallHeap = List.of("-Xmx64m", "-XX:+UseSerialGC");
        ProcessResult proved = pm.runJvm(smallHeap, Duration.ofMinutes(5), "prove", media.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        Path sealed = dir.resolve("share.zip.age");
        ProcessResult exported = pm.runJvm(smallHeap, Duration.ofMinutes(5), "export", "--with-media", "--encrypt-to", recipient,
                "-o", sealed.toString(), media.toString());
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        assertThat(Files.size(sealed)).isGreaterThan(SIZE);
        Files.delete(media);

        ProcessResult verified = pm.runJvm(smallHeap, Duration.ofMinutes(5), "verify", "--identity", identity.toString(), sealed.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("PASS  media.hash.match", "PASS  signature.media.valid");

        Path opened = dir.resolve("share.zip");
        ProcessResult byAge = AgeTool.decrypt(identity, sealed, opened);
        assertThat(byAge.succeeded()).as(byAge.describe()).isTrue();
        assertThat(Files.size(opened)).isGreaterThan(SIZE);
    }
}
