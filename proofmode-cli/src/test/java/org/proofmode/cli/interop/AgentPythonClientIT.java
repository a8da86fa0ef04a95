// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The launchers' agent client ({@code proofmode-cli/src/main/launcher/agent-client.py}) run by the system's
 * Python 3 against a real agent: it answers every command as the JVM's client does (output, error output,
 * exit code), says "run it here" (200) when no agent listens, a dead agent left its socket, or the agent is of
 * another build, and the launcher hands a command over with it ({@code prove}, {@code verify}, {@code export},
 * {@code status}) without starting a JVM at all.
 */
class AgentPythonClientIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int RUN_HERE = 200;

    @TempDir
    Path dir;

    private static Path client() {
        Path script = ProofModeJar.jar().getParent().getParent().resolve("src/main/launcher/agent-client.py");
        assertThat(script).isRegularFile();
        return script;
    }

    private static ProcessResult python(Path jar, Path home, Path cwd, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of("python3", "-I", "-S", client().toString(), jar.toString(), home.toString()));
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, env, TIMEOUT, cwd);
    }

    private static ProcessResult jvm(Path home, Path cwd, String... args) {
        return ExternalTool.run(Daemon.command(List.of(), args), Map.of("PROOFMODE_HOME", home.toString()), TIMEOUT, cwd);
    }

    @Test
    void answersAsTheJvmClient_proveAndVerify() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path work = Files.createDirectories(dir.resolve("work"));
        Path photo = TestMedia.jpeg(Files.createDirectories(work.resolve("shots")), "a.jpg", 21);
        String sha = TestMedia.sha256(photo);
        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);

        // The passphrase is never sent, only its check: a command with another passphrase than the agent's is
        // refused and runs alone (where a wrong one is exit 67); with the agent's own it is served.
        ProcessResult wrong = python(ProofModeJar.jar(), home, work, Map.of("PROOFMODE_PASSPHRASE", "wrong"), "prove",
                "shots/a.jpg", "--out", "proofs");
        assertThat(wrong.exitCode()).as(wrong.describe()).isEqualTo(RUN_HERE);
        assertThat(wrong.stdout()).isEmpty();
        assertThat(wrong.stderr()).isEqualTo("proofmode: agent: the command's PROOFMODE_PASSPHRASE is not the one the agent "
                + "unlocked the key with; running here\n");
        assertThat(work.resolve("proofs")).doesNotExist();
        ProcessResult proved = python(ProofModeJar.jar(), home, work, Map.of("PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE), "prove",
                "--notes", "handed over by python", "shots/a.jpg", "--out", "proofs");
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        assertThat(proved.stdout()).isEqualTo(sha + "  shots/a.jpg\n");
        assertThat(Files.readString(work.resolve("proofs").resolve(sha).resolve(sha + ".proof.json")))
                .contains("handed over by python");

        List<List<String>> commands = List.of(
                List.of("verify", "proofs/" + sha),
                List.of("verify", "--json", "proofs/" + sha),
                List.of("verify", "none.zip"),
                List.of("prove", "shots/none.jpg"),
                List.of("prove", "--bogus", "shots/a.jpg"),
                List.of("prove", "--out", "proofs", "shots/a.jpg"));
        for (List<String> c : commands) {
            ProcessResult byPython = python(ProofModeJar.jar(), home, work, Map.of(), c.toArray(String[]::new));
            ProcessResult byJvm = jvm(home, work, c.toArray(String[]::new));
            assertThat(byPython.exitCode()).as("%s: %s", c, byPython.describe()).isEqualTo(byJvm.exitCode()).isNotEqualTo(RUN_HERE);
            assertThat(byPython.stdout()).as("output of %s", c).isEqualTo(byJvm.stdout());
            assertThat(byPython.stderr()).as("errors of %s", c).isEqualTo(byJvm.stderr());
        }
        assertThat(python(ProofModeJar.jar(), home, work, Map.of(), "verify", "none.zip").exitCode()).isEqualTo(61);

        // Whoever reads the output goes away (`| head`): the client stops quietly, as SIGPIPE would stop it,
        // and the agent goes on serving.
        Path errors = dir.resolve("pipe.err");
        Process piped = new ProcessBuilder("python3", "-I", "-S", client().toString(), ProofModeJar.jar().toString(), home.toString(),
                "verify", "--json", "proofs/" + sha).directory(work.toFile()).redirectError(errors.toFile()).start();
        piped.getInputStream().close(); // long before the interpreter has started and the agent answered
        assertThat(piped.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(piped.exitValue()).isEqualTo(141);
        assertThat(Files.readString(errors)).isEmpty();
        assertThat(python(ProofModeJar.jar(), home, work, Map.of(), "verify", "proofs/" + sha).exitCode()).isZero();

        assertThat(jvm(home, work, "agent", "--stop").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void saysRunHere_noAgent_deadAgentsSocket_otherBuild() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path photo = TestMedia.jpeg(dir, "b.jpg", 22);
        Path socket = home.resolve("agent").resolve("agent.sock");

        ProcessResult none = python(ProofModeJar.jar(), home, dir, Map.of(), "prove", photo.toString());
        assertThat(none.exitCode()).as(none.describe()).isEqualTo(RUN_HERE);
        assertThat(none.stdout() + none.stderr()).isEmpty();

        // A socket file nobody listens on, as an agent that was killed leaves it: removed.
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel dead = ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertThat(socket).exists();
        ProcessResult stale = python(ProofModeJar.jar(), home, dir, Map.of(), "prove", photo.toString());
        assertThat(stale.exitCode()).as(stale.describe()).isEqualTo(RUN_HERE);
        assertThat(socket).doesNotExist();

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        Path otherBuild = Files.copy(ProofModeJar.jar(), dir.resolve("other.jar"), StandardCopyOption.COPY_ATTRIBUTES);
        ProcessResult refused = python(otherBuild, home, dir, Map.of(), "prove", photo.toString());
        assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(RUN_HERE);
        assertThat(refused.stdout()).isEmpty();
        assertThat(refused.stderr()).startsWith("proofmode: agent: the running agent is of another build").endsWith("; running here\n");
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).as("an agent of another build stops").isTrue();
    }

    /** With Python there, a command handed to a running agent starts no JVM: here the launcher's java cannot run. */
    @Test
    void launcher_handsOverWithoutAJvm() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path photo = TestMedia.jpeg(dir, "c.jpg", 23);
        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        Path brokenJava = Files.createDirectories(dir.resolve("broken-jdk/bin")).resolve("java");
        Files.writeString(brokenJava, "#!/bin/sh\necho 'a JVM was started' >&2\nexit 99\n");
        assertThat(brokenJava.toFile().setExecutable(true)).isTrue();
        Path script = ProofModeJar.jar().getParent().getParent().getParent().resolve("proofmode");

        ProcessResult r = ExternalTool.run(List.of("bash", script.toString(), "prove", "--out", "out", photo.toString()),
                Map.of("PROOFMODE_HOME", home.toString(), "JAVA_HOME", brokenJava.getParent().getParent().toString()), TIMEOUT, dir);

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).isEqualTo(TestMedia.sha256(photo) + "  " + photo + "\n");
        assertThat(r.stderr()).doesNotContain("a JVM was started");
        // export and status are handed over as well.
        for (List<String> c : List.of(List.of("prove", "c.jpg"), List.of("export", "--proof-only", "-o", "c.zip", "c.jpg"), List.of("status"))) {
            List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
            cmd.addAll(c);
            ProcessResult handed = ExternalTool.run(cmd, Map.of("PROOFMODE_HOME", home.toString(),
                    "JAVA_HOME", brokenJava.getParent().getParent().toString()), TIMEOUT, dir);
            assertThat(handed.exitCode()).as("%s: %s", c, handed.describe()).isZero();
            assertThat(handed.stderr()).as("%s", c).doesNotContain("a JVM was started");
        }
        assertThat(dir.resolve("c.zip")).isRegularFile();
        assertThat(jvm(home, dir, "agent", "--stop").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
}
