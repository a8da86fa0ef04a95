// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgpainless.PGPainless;
import org.proofmode.ProofMode;
import org.proofmode.failure.ProofModeException;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.OpenPgpKeys;

class BundleKeyCacheTest {
    /** Ten times the bound. */
    private static final int KEYS = BundleKeyCache.MAX_ENTRIES * 10;
    private static final List<byte[]> FILES = new ArrayList<>();
    private static final List<String> FINGERPRINTS = new ArrayList<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void keys() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            PGPPublicKeyRing cert = PGPainless.extractCertificate(
                    PGPainless.generateKeyRing().simpleEcKeyRing("k" + i + " <k" + i + "@example.org>"));
            FILES.add(OpenPgpKeys.armor(cert));
            FINGERPRINTS.add(OpenPgpKeys.fingerprint(cert.getPublicKey()));
        }
    }

    private static void readsAll(BundleKeyCache cache) throws Exception {
        for (int i = 0; i < KEYS; i++) {
            List<PGPPublicKeyRing> read = cache.read(FILES.get(i), "pubkey.asc");
            assertThat(read).hasSize(1);
            assertThat(OpenPgpKeys.fingerprint(read.get(0).getPublicKey())).isEqualTo(FINGERPRINTS.get(i));
            assertThat(read.get(0).getEncoded()).isEqualTo(OpenPgpKeys.readCertificates(FILES.get(i), "k").get(0).getEncoded());
            assertThat(cache.size()).isLessThanOrEqualTo(BundleKeyCache.MAX_ENTRIES);
        }
    }

    @Test
    void read_givesEachCallItsOwnCopyEqualToAFreshRead_forTheSameKeyFile() throws Exception {
        BundleKeyCache cache = new BundleKeyCache();
        byte[] file = FILES.get(0);
        PGPPublicKeyRing first = cache.read(file, "pubkey.asc").get(0);
        PGPPublicKeyRing second = cache.read(file.clone(), "pubkey.asc").get(0);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(second).isNotSameAs(first);
        assertThat(second.getPublicKey()).isNotSameAs(first.getPublicKey());
        assertThat(second.getEncoded()).isEqualTo(first.getEncoded())
                .isEqualTo(OpenPgpKeys.readCertificates(file, "k").get(0).getEncoded());
    }

    @Test
    void read_keepsAtMostItsBound_forTenTimesAsManyKeyFilesInTurn() throws Exception {
        BundleKeyCache cache = new BundleKeyCache();
        readsAll(cache);
        readsAll(cache);
        assertThat(cache.size()).isEqualTo(BundleKeyCache.MAX_ENTRIES);
    }

    @Test
    void read_keepsAtMostItsBound_forTenTimesAsManyKeyFilesFromEightThreads() throws Exception {
        BundleKeyCache cache = new BundleKeyCache();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(pool.submit(() -> {
                    readsAll(cache);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(cache.size()).isEqualTo(BundleKeyCache.MAX_ENTRIES);
    }

    @Test
    void read_failsAsAFreshReadAndKeepsNothing_forMalformedKeyFile() {
        BundleKeyCache cache = new BundleKeyCache();
        byte[] bad = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----\n"
                .getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> cache.read(bad, "pubkey.asc")).isInstanceOf(ProofModeException.class)
                    .hasMessageStartingWith("pubkey.asc: ");
        }
        assertThat(cache.size()).isZero();
    }

    @Test
    void read_keepsNothing_forKeyFileLargerThanItsBound() {
        BundleKeyCache cache = new BundleKeyCache();
        byte[] file = FILES.get(1);
        byte[] padded = Arrays.copyOf(file, BundleKeyCache.MAX_CACHED_BYTES * 10);
        Arrays.fill(padded, file.length, padded.length, (byte) '\n');
        for (int i = 0; i < 2; i++) {
            assertThat(OpenPgpKeys.fingerprint(cache.read(padded, "pubkey.asc").get(0).getPublicKey())).isEqualTo(FINGERPRINTS.get(1));
        }
        assertThat(cache.size()).isZero();
    }

    @Test
    void verify_sameReport_forTheSameProofVerifiedAgainByOneVerifier() {
        ProofMode pm = ProofMode.at(tmp.resolve("again"));
        ProvedFixture fx = ProvedFixture.prove(tmp.resolve("again-work"), pm, TestHomes.keyIn(pm, KeyType.ED25519), 7);
        Verifier one = new Verifier(List.of(), BundleLimits.DEFAULT);
        VerificationReport first = one.verify(fx.folder(), Optional.of(fx.media()));
        VerificationReport again = one.verify(fx.folder(), Optional.of(fx.media()));
        VerificationReport fresh = new Verifier(List.of(), BundleLimits.DEFAULT).verify(fx.folder(), Optional.of(fx.media()));
        assertThat(first.verdict()).isEqualTo(Verdict.VALID);
        assertThat(again.checks()).anyMatch(c -> c.code().equals(CheckCodes.BUNDLE_PUBKEY_PRESENT));
        assertThat(ReportJson.write(again)).isEqualTo(ReportJson.write(first)).isEqualTo(ReportJson.write(fresh));
    }
}
