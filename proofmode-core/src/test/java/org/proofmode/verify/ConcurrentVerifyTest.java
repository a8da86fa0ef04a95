// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;

/**
 * One verifier used by several threads at once, as `verify` of a folder and the server use it: every
 * proof signed by the home's own (trusted) key stays TRUSTED, and no check throws. The trusted key is
 * shared by all verifications; checking a signature changes Bouncy Castle's signature objects, so
 * verifications that share them fail or throw now and then.
 */
class ConcurrentVerifyTest {
    @TempDir
    Path dir;

    @Test
    void verify_trustedEveryTime_manyProofsOnEightThreads() throws Exception {
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        List<Path> folders = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Path media = TestHomes.jpegLike(dir.resolve("photo-" + i + ".jpg"), i, 60);
            folders.add(TestHomes.prove(pm, key, media).proofFolder().orElseThrow());
        }
        Verifier verifier = pm.verifier(List.of());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Verdict>> results = new ArrayList<>();
            for (int round = 0; round < 30; round++) {
                for (Path f : folders) {
                    results.add(pool.submit(() -> verifier.verify(f, Optional.empty()).verdict()));
                }
            }
            for (Future<Verdict> r : results) {
                assertThat(r.get()).isEqualTo(Verdict.TRUSTED);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
