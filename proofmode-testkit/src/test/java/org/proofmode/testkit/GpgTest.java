// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpgTest {
    @TempDir
    Path dir;

    @Test
    void verify_succeeds_fileSignedByGeneratedKey() throws IOException {
        Path data = Files.writeString(dir.resolve("data.txt"), "hello");
        Path sig = dir.resolve("data.txt.asc");
        try (Gpg gpg = Gpg.create(dir)) {
            String fpr = gpg.generateKey("Test <test@example.org>", Gpg.KeyAlgorithm.ED25519);
            gpg.detachSign(fpr, data, sig);

            ProcessResult r = gpg.verify(sig, data);

            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(r.stderr()).contains("Good signature", fpr);
            assertThat(Files.readString(sig)).startsWith("-----BEGIN PGP SIGNATURE-----");
        }
    }

    @Test
    void verify_fails_signedFileChanged() throws IOException {
        Path data = Files.writeString(dir.resolve("data.txt"), "hello");
        Path sig = dir.resolve("data.txt.asc");
        try (Gpg gpg = Gpg.create(dir)) {
            gpg.detachSign(gpg.generateKey("Test <test@example.org>", Gpg.KeyAlgorithm.ED25519), data, sig);
            Tamper.flipByte(data, 0);

            assertThat(gpg.verify(sig, data).exitCode()).isNotZero();
        }
    }

    @Test
    void fingerprintsOf_listsPrimaryKeyOnly_exportedPublicKey() {
        Path pub = dir.resolve("pub.asc");
        try (Gpg gpg = Gpg.create(dir)) {
            String fpr = gpg.generateKey("Test <test@example.org>", Gpg.KeyAlgorithm.ED25519);
            gpg.exportPublicKey(fpr, pub);

            assertThat(gpg.fingerprintsOf(pub)).containsExactly(fpr);
        }
    }

    @Test
    void close_stopsAgent_agentStartedByKeyGeneration() throws InterruptedException {
        Gpg gpg = Gpg.create(dir);
        gpg.generateKey("Test <test@example.org>", Gpg.KeyAlgorithm.ED25519);
        ProcessResult dirs = ExternalTool.run(List.of("gpgconf", "--homedir", gpg.home().toString(), "--list-dirs", "agent-socket"),
                Map.of(), Duration.ofSeconds(30));
        Path socket = Path.of(dirs.stdout().strip());
        assertThat(socket).exists();

        gpg.close();

        // The agent removes its socket as it exits; give it a moment.
        for (int i = 0; i < 50 && Files.exists(socket); i++) {
            Thread.sleep(100);
        }
        assertThat(socket).doesNotExist();
    }
}
