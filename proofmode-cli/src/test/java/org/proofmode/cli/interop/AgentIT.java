// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code proofmode agent} from the shaded jar, as users run it: it unlocks the key once, and later
 * {@code prove} commands without a passphrase, run from another folder with relative paths, are proved
 * with its key; it stops on {@code --stop}, and when the key file changes, commands run by themselves again.
 */
class AgentIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void prove_usesAgentsKey_noPassphraseGiven() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = ProofModeJar.at(home);
        ProcessResult created = jar.run("keys", "create");
        assertThat(created.exitCode()).as(created.describe()).isZero();
        Path work = Files.createDirectories(dir.resolve("work"));
        Path photo = TestMedia.jpeg(Files.createDirectories(work.resolve("shots")), "a.jpg", 7);
        String sha = TestMedia.sha256(photo);

        // Without the agent, no passphrase means no key.
        ProcessResult alone = client(home, work, "prove", "shots/a.jpg");
        assertThat(alone.exitCode()).as(alone.describe()).isEqualTo(67);

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        Path socket = home.resolve("agent").resolve("agent.sock");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-------");

        ProcessResult viaAgent = client(home, work, "prove", "--notes", "by the agent", "shots/a.jpg", "--out", "proofs");
        assertThat(viaAgent.exitCode()).as(viaAgent.describe()).isZero();
        assertThat(viaAgent.stdout()).isEqualTo(sha + "  shots/a.jpg\n");
        Path folder = work.resolve("proofs").resolve(sha);
        assertThat(Files.readString(folder.resolve(sha + ".proof.json"))).contains("by the agent");
        ProcessResult verified = client(home, work, "verify", "proofs/" + sha);
        assertThat(verified.exitCode()).as(verified.describe()).isZero();

        // The same answers as a command alone: a missing file and a bad option.
        ProcessResult missing = client(home, work, "prove", "shots/none.jpg");
        assertThat(missing.exitCode()).isEqualTo(61);
        assertThat(missing.stderr()).isEqualTo("proofmode: shots/none.jpg: no such file or folder\n");
        assertThat(client(home, work, "prove", "--bogus", "shots/a.jpg").exitCode()).isEqualTo(37);

        ProcessResult stop = client(home, work, "agent", "--stop");
        assertThat(stop.exitCode()).as(stop.describe()).isZero();
        assertThat(stop.stderr()).contains("agent stopped");
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.exitValue()).isZero();
        assertThat(socket).doesNotExist();
        assertThat(client(home, work, "prove", "--force", "shots/a.jpg").exitCode()).isEqualTo(67);
    }

    @Test
    void verify_answersAsAlone_throughAgent() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = ProofModeJar.at(home);
        assertThat(jar.run("keys", "create").exitCode()).isZero();
        Path work = Files.createDirectories(dir.resolve("work"));
        Path photo = TestMedia.jpeg(Files.createDirectories(work.resolve("shots")), "c.jpg", 9);
        String sha = TestMedia.sha256(photo);
        ProcessResult proved = jar.run("prove", "--out", work.resolve("proofs").toString(), photo.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        Path bad = Files.createDirectories(work.resolve("bad"));
        Path set = work.resolve("proofs").resolve(sha);
        try (java.util.stream.Stream<Path> files = Files.list(set)) {
            for (Path f : files.toList()) {
                Files.copy(f, bad.resolve(f.getFileName()));
            }
        }
        Path record = bad.resolve(sha + ".proof.json");
        Files.writeString(record, Files.readString(record).replaceFirst("\\{", "{\"Notes\":\"changed\","));

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        List<List<String>> commands = List.of(
                List.of("verify", "proofs/" + sha),
                List.of("verify", "--json", "proofs/" + sha),
                List.of("verify", "bad"),
                List.of("verify", "proofs/" + sha, "none.zip"),
                List.of("verify", "--require-trusted", "bad"));
        for (List<String> c : commands) {
            ProcessResult viaAgent = client(home, work, c.toArray(String[]::new));
            ProcessResult alone = ExternalTool.run(Daemon.command(List.of(), c.toArray(String[]::new)),
                    Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_AGENT", "off"), TIMEOUT, work);
            assertThat(viaAgent.exitCode()).as("%s: %s", c, viaAgent.describe()).isEqualTo(alone.exitCode());
            // The batch summary says how long the run took, which no two runs share.
            assertThat(withoutTiming(viaAgent.stdout())).as("output of %s", c).isEqualTo(withoutTiming(alone.stdout()));
            assertThat(viaAgent.stderr()).as("errors of %s", c).isEqualTo(alone.stderr());
        }
        assertThat(withoutTiming(client(home, work, "verify", "proofs/" + sha, "none.zip").stdout())).contains("Summary: 2 items in T s");
        assertThat(client(home, work, "verify", "bad").exitCode()).isEqualTo(3);
        assertThat(Files.readString(log)).doesNotContain("Exception");

        assertThat(client(home, work, "agent", "--stop").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void encryptedStore_agentHoldsItsIdentity_untilLock() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = encryptedHome(home);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path photo = TestMedia.jpeg(work, "s.jpg", 11);
        ProcessResult proved = jar.run("prove", photo.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();

        // Without the agent, reading the sealed store needs the passphrase.
        assertThat(client(home, work, "verify", "s.jpg").exitCode()).isEqualTo(67);
        ProcessResult nothing = client(home, work, "lock");
        assertThat(nothing.exitCode()).as(nothing.describe()).isZero();
        assertThat(nothing.stderr()).isEqualTo("proofmode: nothing to lock: no agent runs for " + home + "\n");

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        assertThat(Files.readString(log)).contains("and the store's identity");
        Path photo2 = TestMedia.jpeg(work, "t.jpg", 12);
        assertThat(client(home, work, "prove", "t.jpg").exitCode()).isZero();
        for (String media : List.of("s.jpg", "t.jpg")) {
            ProcessResult verified = client(home, work, "verify", media);
            assertThat(verified.exitCode()).as(verified.describe()).isZero();
            assertThat(verified.stdout()).contains("(media: " + media + "): TRUSTED");
        }

        ProcessResult lock = client(home, work, "lock");
        assertThat(lock.exitCode()).as(lock.describe()).isZero();
        assertThat(lock.stderr()).isEqualTo("proofmode: locked: the agent for " + home
                + " dropped the device key and the store's identity and stopped\n");
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.exitValue()).isZero();
        assertThat(home.resolve("agent").resolve("agent.sock")).doesNotExist();
        ProcessResult after = client(home, work, "verify", photo2.getFileName().toString());
        assertThat(after.exitCode()).as(after.describe()).isEqualTo(67);
        assertThat(Files.readString(log)).doesNotContain("Exception");
    }

    @Test
    void encryptedStore_exportUsesTheAgentsIdentity_untilLock() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = encryptedHome(home);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path photo = TestMedia.jpeg(work.resolve("shots"), "e.jpg", 13);
        String sha = TestMedia.sha256(photo);
        assertThat(jar.run("prove", photo.toString()).exitCode()).isZero();

        // Without the agent, reading the sealed store needs the passphrase.
        ProcessResult alone = client(home, work, "export", "--proof-only", "-o", "alone.zip", "shots/e.jpg");
        assertThat(alone.exitCode()).as(alone.describe()).isEqualTo(67);
        assertThat(work.resolve("alone.zip")).doesNotExist();

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        // Relative paths are the caller's, though the agent runs in another folder.
        ProcessResult exported = client(home, work, "export", "--with-media", "-o", "share.zip", "shots/e.jpg");
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        assertThat(exported.stdout()).isEqualTo("share.zip\n");
        assertThat(work.resolve("share.zip")).isRegularFile();
        ProcessResult byHash = client(home, work, "export", "--proof-only", "-o", "proof.zip", sha);
        assertThat(byHash.exitCode()).as(byHash.describe()).isZero();
        ProcessResult verified = client(home, work, "verify", "share.zip");
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("TRUSTED");
        assertThat(client(home, work, "verify", "proof.zip", "--media", "shots/e.jpg").exitCode()).isZero();

        assertThat(client(home, work, "lock").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        ProcessResult after = client(home, work, "export", "--proof-only", "-o", "after.zip", "shots/e.jpg");
        assertThat(after.exitCode()).as(after.describe()).isEqualTo(67);
        assertThat(work.resolve("after.zip")).doesNotExist();
        assertThat(Files.readString(log)).doesNotContain("Exception");
    }

    @Test
    void encryptedStore_compareReadsTheStoredProofWithTheAgentsIdentity_untilLock() throws Exception {
        ExternalTool.require("ffprobe");
        Path home = dir.resolve("home");
        ProofModeJar jar = encryptedHome(home);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path video = Ffmpeg.make(work.resolve("v.mp4"), "-f", "lavfi", "-i",
                "testsrc=size=160x120:rate=25:duration=2", "-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p");
        Ffmpeg.make(work.resolve("v.mov"), "-i", video.toString(), "-c", "copy");
        String sha = TestMedia.sha256(video);
        assertThat(jar.run("prove", video.toString()).exitCode()).isZero();

        // Without the agent, reading the sealed store needs the passphrase.
        assertThat(client(home, work, "compare", sha, "v.mov").exitCode()).isEqualTo(67);

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        ProcessResult compared = client(home, work, "compare", sha, "v.mov");
        assertThat(compared.exitCode()).as(compared.describe()).isZero();
        assertThat(compared.stdout()).contains("(proof, TRUSTED").endsWith("PASS  same content: other bytes, the same decoded frames, "
                + "samples or pixels\n");

        assertThat(client(home, work, "lock").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(client(home, work, "compare", sha, "v.mov").exitCode()).isEqualTo(67);
        assertThat(Files.readString(log)).doesNotContain("Exception");
    }

    private static String withoutTiming(String out) {
        return out.replaceAll("(?m)^(Summary: \\d+ items?) in \\d+\\.\\d s$", "$1 in T s");
    }

    @Test
    void prove_runsAlone_keyChangedSinceAgentStarted() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = ProofModeJar.at(home);
        assertThat(jar.run("keys", "create").exitCode()).isZero();
        Path photo = TestMedia.jpeg(dir, "b.jpg", 8);
        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent");
        Daemon.await(log, "agent ready for " + home);

        ProcessResult rotated = jar.run("keys", "rotate");
        assertThat(rotated.exitCode()).as(rotated.describe()).isZero();
        ProcessResult after = client(home, dir, "prove", photo.toString());
        assertThat(after.stderr()).contains("proofmode: agent: the device key changed since the agent unlocked it; the agent stopped; running here");
        assertThat(after.exitCode()).as(after.describe()).isEqualTo(67);
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(home.resolve("agent").resolve("agent.sock")).doesNotExist();
    }

    @Test
    void agent_refusesSecond_oneRunsAlready() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "10s");
        Daemon.await(log, "agent ready for " + home);
        ProcessResult second = ProofModeJar.at(home).run("agent");
        assertThat(second.exitCode()).isEqualTo(1);
        assertThat(second.stderr()).contains("an agent is already running for " + home);
        // Unused for its idle time, it stops by itself.
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(log)).contains("proofmode: agent stopped");
    }

    /** A new home with a device key and an encrypted store. */
    private static ProofModeJar encryptedHome(Path home) {
        ProofModeJar jar = ProofModeJar.at(home);
        ProcessResult created = jar.run("keys", "create", "--encrypt-store");
        assertThat(created.exitCode()).as(created.describe()).isZero();
        return jar;
    }

    /** {@code proofmode ARGS} in {@code cwd}, without a passphrase. */
    private static ProcessResult client(Path home, Path cwd, String... args) {
        return ExternalTool.run(Daemon.command(List.of(), args), Map.of("PROOFMODE_HOME", home.toString()), TIMEOUT, cwd);
    }
}
