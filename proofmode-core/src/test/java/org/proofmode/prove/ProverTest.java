// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.sign.StreamSigner;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;

class ProverTest {
    @TempDir
    Path dir;

    private ProofMode pm;
    private SigningKey key;
    private final List<String> sourceThreads = new ArrayList<>();
    private final MetadataSource recordingSource = new MetadataSource() {
        @Override
        public String name() {
            return "Test";
        }

        @Override
        public void contribute(org.proofmode.proof.MediaFile media, ProofRecord.Builder record) {
            synchronized (sourceThreads) {
                sourceThreads.add(Thread.currentThread().getName());
            }
            record.put("Test.Size", Long.toString(media.size()));
        }
    };

    @BeforeEach
    void setUp() {
        pm = ProofMode.at(dir.resolve("home"));
        key = TestHomes.keyIn(pm, KeyType.ED25519);
    }

    @Test
    void prove_runsSourcesOnOtherThread_largeFile() throws Exception {
        Path big = large(dir.resolve("big.jpg"));

        ProveResult r = prover().prove(big, options(StreamSigner.Progress.NONE));

        assertThat(sourceThreads).containsExactly("proofmode-context");
        ProofRecord record = recordOf(r);
        assertThat(record.get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(big));
        assertThat(record.get("Test.Size")).contains(Long.toString(Files.size(big)));
        assertThat(List.copyOf(record.fields().keySet()).subList(0, 2))
                .containsExactly(ProofFields.FILE_PATH, ProofFields.FILE_HASH_SHA256);
    }

    @Test
    void prove_runsSourcesOnCallingThread_smallFile() throws Exception {
        Path small = TestHomes.jpegLike(dir.resolve("small.jpg"), 1, 1000);

        ProveResult r = prover().prove(small, options(StreamSigner.Progress.NONE));

        assertThat(sourceThreads).containsExactly(Thread.currentThread().getName());
        assertThat(recordOf(r).get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(small));
        assertThat(List.copyOf(recordOf(r).fields().keySet()).subList(0, 2))
                .containsExactly(ProofFields.FILE_PATH, ProofFields.FILE_HASH_SHA256);
    }

    @Test
    void prove_takesContextWhileKeyIsUnlocked_keyNotYetUnlocked() throws Exception {
        Path small = TestHomes.jpegLike(dir.resolve("small.jpg"), 2, 1000);
        CountDownLatch contextTaken = new CountDownLatch(1);
        MetadataSource signals = countingDown(contextTaken);
        Supplier<SigningKey> slowUnlock = () -> {
            try {
                // an unlock that finishes only once the context was taken: it must not be waited for first
                assertThat(contextTaken.await(30, TimeUnit.SECONDS)).as("context taken while the key is unlocked").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return key;
        };

        ProveResult r = pm.prover(slowUnlock, pm.store(), List.of(recordingSource, signals)).prove(small, options(StreamSigner.Progress.NONE));

        assertThat(sourceThreads).containsExactly("proofmode-context");
        assertThat(recordOf(r).get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(small));
    }

    @Test
    void prove_takesTheFirstContextWhileTheFileIsHashed_keyNotYetUnlocked() throws Exception {
        Path small = TestHomes.jpegLike(dir.resolve("first.jpg"), 4, 1000);
        CountDownLatch contextStarted = new CountDownLatch(1);
        MetadataSource signals = countingDown(contextStarted);
        AtomicBoolean sawContext = new AtomicBoolean();
        StreamSigner.Progress hashing = bytes -> {
            try {
                // the hash goes on only once the context is being taken: it must not wait for the hash
                sawContext.compareAndSet(false, contextStarted.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Supplier<SigningKey> unlocking = () -> key;

        ProveResult r = pm.prover(unlocking, pm.store(), List.of(signals, recordingSource)).prove(small, options(hashing));

        assertThat(sawContext).as("context taken while the file was hashed").isTrue();
        assertThat(sourceThreads).containsExactly("proofmode-context");
        assertThat(recordOf(r).get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(small));
        assertThat(recordOf(r).get("Test.Size")).contains(Long.toString(Files.size(small)));
    }

    @Test
    void prove_takesTheFirstContextAgain_smallFileGrowsWhileRead() throws Exception {
        Path small = TestHomes.jpegLike(dir.resolve("growing-small.jpg"), 5, 1000);
        long before = Files.size(small);
        AtomicBoolean appended = new AtomicBoolean();
        StreamSigner.Progress appendOnce = bytes -> {
            if (appended.compareAndSet(false, true)) {
                try {
                    Files.write(small, new byte[4096], StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        Supplier<SigningKey> unlocking = () -> key;

        ProveResult r = pm.prover(unlocking, pm.store(), List.of(recordingSource)).prove(small, options(appendOnce));

        assertThat(r.outcome()).isEqualTo(ProveResult.Outcome.PROVED);
        ProofRecord record = recordOf(r);
        assertThat(record.get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(small));
        assertThat(record.get("Test.Size")).as("the size that was read and hashed").contains(Long.toString(before + 4096));
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void prove_signsNoEarlierThanKeyWasMade_keyMadeAfterFileWasRead(KeyType type) throws Exception {
        ProofMode fresh = ProofMode.at(dir.resolve("fresh-home"));
        Path small = TestHomes.jpegLike(dir.resolve("first.jpg"), 3, 1000);
        Supplier<SigningKey> madeLater = () -> {
            try {
                // as a first command does: the file is read, then the new key is made a second later
                Thread.sleep(1_100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            fresh.keys().create(type, Optional.of(TestHomes.passphrase()));
            return fresh.keys().unlock(TestHomes.passphrase());
        };

        ProveResult r = fresh.prover(madeLater, fresh.store(), List.of(recordingSource)).prove(small, options(StreamSigner.Progress.NONE));

        VerificationReport report = fresh.verifier(Trust.HOME).verify(r.proofFolder().orElseThrow(), Optional.of(small));
        assertThat(report.verdict()).as(report.allChecks().toString()).isEqualTo(Verdict.TRUSTED);
        Instant made = fresh.keys().certificate().getPublicKey().getCreationTime().toInstant();
        assertThat(ProofTimes.parse(recordOf(r).get(ProofFields.PROOF_GENERATED).orElseThrow()).orElseThrow()).isAfterOrEqualTo(made);
    }

    @Test
    void prove_fails_largeFileGrowsWhileRead() throws Exception {
        Path big = large(dir.resolve("growing.jpg"));
        AtomicBoolean appended = new AtomicBoolean();
        StreamSigner.Progress appendOnce = bytes -> {
            if (appended.compareAndSet(false, true)) {
                try {
                    Files.write(big, new byte[4096], StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };

        assertThatThrownBy(() -> prover().prove(big, options(appendOnce)))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.IO))
                .hasMessageContaining("changed while it was being read");
        assertThat(pm.store().list()).isEmpty();
    }

    @Test
    void prove_recordsWarningsAndStillProves_whenContextSourcesFailOnADamagedPhoto() throws Exception {
        Path damaged = TestHomes.jpegLike(dir.resolve("damaged.jpg"), 11, 5000);
        List<MetadataSource> sources = pm.contextSources(org.proofmode.context.Settings.defaults(), Optional.empty());

        ProveResult r = pm.prover(key, pm.store(), sources).prove(damaged, options(StreamSigner.Progress.NONE));

        assertThat(r.outcome()).isEqualTo(ProveResult.Outcome.PROVED);
        ProofRecord record = recordOf(r);
        assertThat(record.get("Warning.Media")).as(record.fields().toString()).isPresent();
        assertThat(record.get("Warning.Image")).as(record.fields().toString()).isPresent();
        assertThat(record.get(ProofFields.FILE_HASH_SHA256)).contains(Digests.sha256(damaged));
        assertThat(record.get("Device.OS.Name")).isPresent();
        VerificationReport report = pm.verifier(Trust.HOME).verify(r.proofFolder().orElseThrow(), Optional.of(damaged));
        assertThat(report.verdict()).isEqualTo(Verdict.TRUSTED);
    }

    /** A source that counts a latch down when it is asked. */
    private static MetadataSource countingDown(CountDownLatch latch) {
        return new MetadataSource() {
            @Override
            public String name() {
                return "Signal";
            }

            @Override
            public void contribute(org.proofmode.proof.MediaFile media, ProofRecord.Builder record) {
                latch.countDown();
            }
        };
    }

    private Prover prover() {
        return pm.prover(key, pm.store(), List.of(recordingSource));
    }

    private static Prover.Options options(StreamSigner.Progress progress) {
        return new Prover.Options(Optional.empty(), false, progress);
    }

    private static ProofRecord recordOf(ProveResult r) throws IOException {
        Path folder = r.proofFolder().orElseThrow();
        String name = ProofFiles.json(r.sha256().orElseThrow());
        return ProofJson.read(Files.readAllBytes(folder.resolve(name)), name).get(0);
    }

    private static Path large(Path file) throws IOException {
        TestHomes.jpegLike(file, 7, 1 << 20);
        byte[] block = Files.readAllBytes(file);
        try (var out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
            for (long written = block.length; written < HeadStart.EARLY_CONTEXT_BYTES; written += block.length) {
                out.write(block);
            }
        }
        return file;
    }
}
