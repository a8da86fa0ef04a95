// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;

/**
 * A 2 GiB file is proved with a 64 MiB heap: the media is read once and memory does not grow with its
 * size. The file is sparse, so it costs no disk space.
 */
class LargeFileIT {
    private static final long SIZE = 2L << 30;

    @TempDir
    Path dir;

    @Test
    void prove_exits0WithRightHashAndGpgVerifies_2GiBFileUnder64MiBHeap() throws IOException {
        Path media = dir.resolve("huge.jpg");
        try {
            try (RandomAccessFile f = new RandomAccessFile(media.toFile(), "rw")) {
                f.setLength(SIZE);
                f.write(TestMedia.JPEG_MAGIC);
            }
            assertThat(Files.size(media)).isEqualTo(SIZE);
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));

            ProcessResult r = pm.runJvm(List.of("-Xmx64m"), Duration.ofMinutes(5), "prove", media.toString());

            assertThat(r.exitCode()).as(r.describe()).isZero();
            String sha = TestMedia.sha256(media);
            assertThat(r.stdout()).isEqualTo(sha + "  " + media + "\n");
            ProofSet proof = new ProofSet(pm.proofFolder(sha), sha, media);
            assertThat(Files.readString(proof.json())).contains("\"File.Size\":\"" + SIZE + "\"");
            try (Gpg gpg = Gpg.create(dir)) {
                gpg.importKey(proof.pubkey());
                ProcessResult v = gpg.verify(proof.mediaSig(), media);
                assertThat(v.exitCode()).as(v.describe()).isZero();
                assertThat(v.stderr()).contains("Good signature");
            }
        } finally {
            Files.deleteIfExists(media);
        }
    }
}
