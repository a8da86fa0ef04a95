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
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;

/** One verifier used by many threads at once, as {@code verify --jobs N} of a folder uses it. */
class SharedVerifierTest {
    @TempDir
    Path dir;

    @Test
    void verify_sameVerdictsOnEveryThread_bundlesOfOneTrustedKey() throws Exception {
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        List<Path> zips = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Path media = TestHomes.jpegLike(dir.resolve("media").resolve("p" + i + ".jpg"), i, 2000);
            ProveResult r = TestHomes.prove(pm, key, media);
            Path zip = dir.resolve("bundle-" + i + ".zip");
            BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(media))), zip, false);
            zips.add(zip);
        }
        Verifier verifier = new Verifier(List.of(pm.keys().certificate()), BundleLimits.DEFAULT);

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Verdict>> verdicts = new ArrayList<>();
            for (int round = 0; round < 25; round++) {
                for (Path zip : zips) {
                    verdicts.add(pool.submit(() -> verifier.verify(zip, Optional.empty()).verdict()));
                }
            }
            for (Future<Verdict> v : verdicts) {
                assertThat(v.get()).isEqualTo(Verdict.TRUSTED);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
