// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.keys.Passphrase;
import org.proofmode.media.Digests;
import org.proofmode.testkit.OpensslTsa;
import org.proofmode.testkit.ProcessResult;

/**
 * Kills {@code proofmode prove} of a batch with SIGKILL at random moments, again and again, and checks
 * after every kill that each proof in the store is complete and valid or absent, and that the key still
 * unlocks. Every other kill comes at any moment after launch, the others a moment after the run wrote
 * its first proof; at least a quarter of the kills must land while the batch is writing proofs. A last
 * run without interruption then proves every file. The moments come from a fixed seed, so a failure can
 * be replayed. Done for a plain store and for an encrypted one (sealed sets). Every file a killed run
 * said it proved has that run's proof in the store: the run says so only once the proof is stored.
 */
class CrashSafetyIT {
    private static final int FILES = 200;
    private static final int KILLS = 12;
    private static final int STAMPED = 30;

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
     * Kills {@code timestamp --tsa} of a batch of proofs in an encrypted store with SIGKILL at random moments,
     * a moment after it added its first token (each addition writes the set anew under another name and
     * removes the old folder): after every kill each proof still has exactly one newest set, whole (every
     * object opens) and TRUSTED, with its token or without, never a part; at least a quarter of the kills
     * land while tokens are being added; a last run stamps every proof.
     */
    @Test
    void timestamp_sealedStore_addingToSets_leavesEachWhole_killedAtRandomMoments() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path media = Files.createDirectories(dir.resolve("media"));
        Map<String, Path> byHash = new HashMap<>();
        List<String> args = new ArrayList<>(List.of("timestamp", "--tsa", ""));
        for (int i = 0; i < STAMPED; i++) {
            Path f = TestMedia.jpeg(media, "photo" + i + ".jpg", 12_000 + i);
            byHash.put(Digests.sha256(f), f);
            args.add(f.toString());
        }
        ProcessResult create = pm.run("keys", "create", "--encrypt-store");
        assertThat(create.exitCode()).as(create.describe()).isZero();
        ProcessResult proved = pm.run("prove", media.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        args.set(2, "http://127.0.0.1:" + port + "/tsr");
        try (OpensslTsa tsa = OpensslTsa.start(dir.resolve("tsa"), port)) {
            Files.copy(tsa.caPem(), Files.createDirectories(pm.home().resolve("tsa-roots")).resolve("loopback.pem"));
            Random random = new Random(20261206);
            int before = 0;
            int midBatch = 0;
            for (int round = 0; round < KILLS; round++) {
                Instant started = Instant.now();
                Process p = start(pm, dir.resolve("stamp-" + round + ".txt"), args.toArray(String[]::new));
                awaitFirstWrite(pm.home(), started, p);
                Thread.sleep(random.nextInt(400));
                p.destroyForcibly();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                String when = "after kill " + (round + 1);
                assertThat(StoreCheck.onlyWholeValidSealedSets(pm.home(), byHash, when)).as(when)
                        .containsExactlyInAnyOrderElementsOf(byHash.keySet());
                int now = stamped(pm.home(), byHash.keySet());
                assertThat(now).as("tokens kept " + when).isGreaterThanOrEqualTo(before);
                if (now > before && now < STAMPED) {
                    midBatch++;
                }
                before = now;
                if (now == STAMPED) {
                    break;
                }
            }
            assertThat(midBatch).as("kills that interrupted the batch while it added tokens").isGreaterThanOrEqualTo(KILLS / 4);
            ProcessResult done = pm.run(args.toArray(String[]::new));
            assertThat(done.exitCode()).as(done.describe()).isZero();
            StoreCheck.onlyWholeValidSealedSets(pm.home(), byHash, "after the last run");
            assertThat(stamped(pm.home(), byHash.keySet())).isEqualTo(STAMPED);
        }
    }

    /** How many of the proofs' newest sets hold their RFC 3161 token. */
    private static int stamped(Path home, Iterable<String> hashes) throws IOException {
        ProofMode pm = ProofMode.at(home);
        try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
            pm = pm.withStoreIdentity(StoreCheck.identity(pm, p));
        }
        int n = 0;
        for (String h : hashes) {
            if (pm.store().set(h).orElseThrow().has(h + ".tsr")) {
                n++;
            }
        }
        return n;
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
            Path told = dir.resolve("told-" + round + ".txt");
            Process p = start(pm, told, "prove", "--force", media.toString());
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
            toldOnlyWhenStored(pm.home(), told, started, "after kill " + (round + 1));
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
                try {
                    if (Files.getLastModifiedTime(p).toInstant().isAfter(t)) {
                        return true;
                    }
                } catch (java.nio.file.NoSuchFileException e) {
                    return true; // listed, then renamed or removed: the process is writing
                }
            }
        }
        return false;
    }

    /**
     * Checks that every file the killed run said it proved (a hash line on its standard output) has the
     * proof that run wrote in the store: the run says so only once the set is stored, never before.
     */
    private static void toldOnlyWhenStored(Path home, Path told, Instant started, String when) throws IOException {
        ProofMode pm = ProofMode.at(home);
        if (pm.store().isEncrypted()) {
            try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
                pm = pm.withStoreIdentity(StoreCheck.identity(pm, p));
            }
        }
        for (String line : Files.readAllLines(told)) {
            if (!line.matches("[0-9a-f]{64}\\s.*")) {
                continue;
            }
            String h = line.substring(0, 64);
            Optional<Path> folder = pm.store().find(h);
            assertThat(folder).as("told " + h + " was proved, but it is not stored " + when).isPresent();
            assertThat(Files.getLastModifiedTime(folder.get()).toInstant()).as("the stored proof of " + h + " is this run's " + when)
                    .isAfterOrEqualTo(started);
        }
    }

    private static Process start(ProofModeJar pm, Path stdout, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(ProofModeJar.QUICK_START);
        cmd.add("-jar");
        cmd.add(ProofModeJar.jar().toString());
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(stdout.toFile());
        b.environment().put("PROOFMODE_HOME", pm.home().toString());
        b.environment().put("PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE);
        return b.start();
    }
}
