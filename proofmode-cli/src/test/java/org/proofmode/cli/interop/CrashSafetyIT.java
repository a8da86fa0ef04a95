// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.ProcessResult;

/**
 * Kills {@code proofmode prove} of a batch with SIGKILL at random moments, again and again, and checks
 * after every kill that each proof in the store is complete and valid or absent, and that the key still
 * unlocks. Every other kill comes at any moment after launch, the others a moment after the run wrote
 * its first proof; at least a quarter of the kills must land while the batch is writing proofs. A last
 * run without interruption then proves every file. The moments come from a fixed seed, so a failure can
 * be replayed. Done for a plain store and for an encrypted one (sealed sets).
 */
class CrashSafetyIT {
    private static final int FILES = 200;
    private static final int KILLS = 12;

    @TempDir
    Path dir;

    /** Checks the store after a kill. */
    @FunctionalInterface
    private interface Check {
        void check(Path home, Map<String, Path> byHash, String when) throws IOException;
    }

    @Test
    void prove_leavesOnlyWholeValidProofs_killedAtRandomMoments() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Map<String, Path> byHash = killAtRandomMoments(pm, List.of("keys", "create"), 5000, 20261203, StoreCheck::onlyWholeValidProofs);
        try (Stream<Path> s = Files.list(pm.home().resolve("proofs"))) {
            assertThat(s.filter(p -> !p.getFileName().toString().startsWith(".")).count()).isEqualTo(FILES);
        }
    }

    /**
     * As above, for an encrypted store: a prove killed at a random moment leaves every set a reader sees
     * whole (each sealed object opens with the identity) and valid, never a partial one; then a run
     * without interruption proves every file.
     */
    @Test
    void prove_sealedStore_leavesOnlyWholeValidSets_killedAtRandomMoments() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Map<String, Path> byHash = killAtRandomMoments(pm, List.of("keys", "create", "--encrypt-store"), 9000, 20261205,
                StoreCheck::onlyWholeValidSealedSets);
        assertThat(StoreCheck.onlyWholeValidSealedSets(pm.home(), byHash, "at the end")).containsExactlyInAnyOrderElementsOf(byHash.keySet());
    }

    /**
     * Makes the home ({@code create}), then kills {@code prove --force} of {@link #FILES} photos
     * {@link #KILLS} times, checking the store after each kill, and proves them all once more without
     * interruption.
     *
     * @return the photos by their hash
     */
    private Map<String, Path> killAtRandomMoments(ProofModeJar pm, List<String> create, int mediaSeed, long seed, Check check)
            throws Exception {
        Path media = Files.createDirectories(dir.resolve("media"));
        Map<String, Path> byHash = new HashMap<>();
        for (int i = 0; i < FILES; i++) {
            Path f = TestMedia.jpeg(media, "photo" + i + ".jpg", mediaSeed + i);
            byHash.put(Digests.sha256(f), f);
        }
        ProcessResult first = pm.run(create.toArray(String[]::new));
        assertThat(first.exitCode()).as(first.describe()).isZero();

        Random random = new Random(seed);
        int midBatch = 0;
        for (int round = 0; round < KILLS; round++) {
            Instant started = Instant.now();
            Process p = start(pm, "prove", "--force", media.toString());
            if (round % 2 == 0) {
                Thread.sleep(150 + random.nextInt(1400)); // any moment: start-up, key unlock, or the batch
            } else {
                awaitFirstWrite(pm.home(), started, p);
                Thread.sleep(random.nextInt(300)); // a moment inside the batch
            }
            boolean running = p.isAlive();
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            check.check(pm.home(), byHash, "after kill " + (round + 1));
            if (running && writtenSince(pm.home(), started)) {
                midBatch++;
            }
        }
        // Kills that all landed before the first write, or after the last, would prove nothing.
        assertThat(midBatch).as("kills that interrupted a batch while it wrote proofs").isGreaterThanOrEqualTo(KILLS / 4);

        ProcessResult done = pm.run("prove", media.toString());
        assertThat(done.exitCode()).as(done.describe()).isZero();
        assertThat(done.stdout().lines()).hasSize(FILES);
        check.check(pm.home(), byHash, "after the last run");
        return byHash;
    }

    private static void awaitFirstWrite(Path home, Instant started, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (p.isAlive() && !writtenSince(home, started) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** Whether a proof set (or a temporary folder of one) was written in the store since {@code t}. */
    private static boolean writtenSince(Path home, Instant t) throws IOException {
        Path store = home.resolve("proofs");
        if (!Files.isDirectory(store)) {
            return false;
        }
        try (Stream<Path> s = Files.list(store)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.getLastModifiedTime(p).toInstant().isAfter(t)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Process start(ProofModeJar pm, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(ProofModeJar.QUICK_START);
        cmd.add("-jar");
        cmd.add(ProofModeJar.jar().toString());
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        b.environment().put("PROOFMODE_HOME", pm.home().toString());
        b.environment().put("PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE);
        return b.start();
    }
}
