// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.media.Digests;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Six {@code proofmode prove} processes started at once on a new home, with no passphrase given (so
 * the first use generates one): one device key, one identifier secret, one settings file are made between
 * them, every run succeeds, and every proof is signed by that one key.
 */
class FirstUseRaceIT {
    private static final int RACERS = 6;

    @TempDir
    Path dir;

    @Test
    void prove_makesOneDeviceKeyAndAllSucceed_sixProcessesOnANewHome() throws Exception {
        Path home = dir.resolve("home");
        Map<String, Path> byHash = new HashMap<>();
        List<Process> racers = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        List<Path> media = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            Path folder = Files.createDirectories(dir.resolve("media" + i));
            Path f = TestMedia.jpeg(folder, "photo" + i + ".jpg", 7000 + i);
            byHash.put(Digests.sha256(f), f);
            media.add(f);
        }
        for (int i = 0; i < RACERS; i++) {
            Path log = dir.resolve("racer" + i + ".log");
            logs.add(log);
            racers.add(start(home, log, "prove", media.get(i).toString()));
        }
        for (int i = 0; i < RACERS; i++) {
            Process p = racers.get(i);
            assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("racer " + i + " finished").isTrue();
            assertThat(p.exitValue()).as("racer " + i + ": " + Files.readString(logs.get(i), StandardCharsets.UTF_8)).isZero();
        }
        int announced = 0;
        for (Path log : logs) {
            announced += (int) Files.readString(log, StandardCharsets.UTF_8).lines().filter(l -> l.contains("created device key")).count();
        }
        assertThat(announced).as("runs that say they created the device key").isEqualTo(1);
        try (Stream<Path> s = Files.list(home.resolve("keys").resolve("public"))) {
            assertThat(s.filter(p -> p.toString().endsWith(".asc")).count()).as("device keys made").isEqualTo(1);
        }

        ProofMode pm = ProofMode.at(home);
        String fingerprint = pm.keys().info().fingerprint();
        Verifier verifier = pm.verifier(Trust.HOME);
        Set<String> signers = new HashSet<>();
        assertThat(pm.store().list()).containsExactlyInAnyOrderElementsOf(byHash.keySet());
        for (String h : pm.store().list()) {
            Optional<Path> folder = pm.store().find(h);
            assertThat(folder).isPresent();
            VerificationReport r = verifier.verify(folder.get(), Optional.of(byHash.get(h)));
            assertThat(r.verdict()).as("proof " + h + ": " + r.allChecks()).isEqualTo(Verdict.TRUSTED);
            for (ProofReport p : r.proofs()) {
                p.signer().ifPresent(sg -> signers.add(sg.fingerprint()));
            }
        }
        assertThat(signers).containsExactly(fingerprint);
    }

    private static Process start(Path home, Path log, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(ProofModeJar.QUICK_START);
        cmd.add("-jar");
        cmd.add(ProofModeJar.jar().toString());
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        b.environment().put("PROOFMODE_HOME", home.toString());
        b.environment().remove("PROOFMODE_PASSPHRASE");
        return b.start();
    }
}
