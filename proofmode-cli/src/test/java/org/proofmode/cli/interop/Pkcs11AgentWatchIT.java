// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftHsm;
import org.proofmode.testkit.Sqv;

/**
 * The long-running commands with a key in a SoftHSM2 token: the agent logs in once and proves a folder
 * for clients that know no PIN; the watcher signs each new file through its token session.
 */
class Pkcs11AgentWatchIT {
    private static final String PIN = "112233";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void agent_holdsTheTokenSession_provesAFolderForAClientWithoutPin() throws Exception {
        Path home = dir.resolve("home");
        SoftHsm hsm = tokenKey(home, "agent");
        Map<String, String> env = tokenEnv(hsm);
        Path shots = Files.createDirectories(dir.resolve("work").resolve("shots"));
        List<Path> photos = List.of(TestMedia.jpeg(shots, "a.jpg", 1), TestMedia.jpeg(shots, "b.jpg", 2), TestMedia.jpeg(shots, "c.jpg", 3));

        ProcessResult alone = client(home, "prove", shots.toString());
        assertThat(alone.exitCode()).as("no agent, no PIN: " + alone.describe()).isEqualTo(67);

        Path log = dir.resolve("agent.log");
        Process agent = Daemon.start(home, log, List.of(), env, "agent", "--idle", "5m");
        Daemon.await(log, "agent ready for " + home);
        ProcessResult proved = client(home, "prove", shots.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        for (Path p : photos) {
            String sha = TestMedia.sha256(p);
            Path folder = home.resolve("proofs").resolve(sha);
            assertThat(Files.readString(folder.resolve(sha + ".proof.json"))).contains("\"Proof.KeyStorage\":\"pkcs11: SoftHSM project SoftHSM v2\"");
            ProcessResult q = Sqv.verify(folder.resolve("pubkey.asc"), folder.resolve(sha + ".asc"), p);
            assertThat(q.exitCode()).as(q.describe()).isZero();
        }
        assertThat(client(home, "agent", "--stop").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void agent_tokenPulled_proveFailsInOneLineWritingNothing_agentRestartedOnceTheTokenIsBackSigns() throws Exception {
        Path home = dir.resolve("home");
        SoftHsm hsm = tokenKey(home, "pulled");
        Map<String, String> env = tokenEnv(hsm);
        Path before = TestMedia.jpeg(dir, "before.jpg", 31);
        Path after = TestMedia.jpeg(dir, "after.jpg", 32);
        Process agent = Daemon.start(home, dir.resolve("agent.log"), List.of(), env, "agent", "--idle", "5m");
        Daemon.await(dir.resolve("agent.log"), "agent ready for " + home);
        assertThat(client(home, "prove", before.toString()).exitCode()).isZero();

        // pulled: the module finds no token files any more
        Path away = dir.resolve("token-away");
        Files.move(hsm.tokenFolder(), away);
        Files.createDirectory(hsm.tokenFolder());
        String removed = "proofmode: the token could not sign: the token was removed or reset since the login (or the key deleted); "
                + "once it is back, restart what holds its session (proofmode agent --stop; proofmode agent)\n";
        ProcessResult pulled = client(home, "prove", after.toString());
        assertThat(pulled.exitCode()).as(pulled.describe()).isEqualTo(61);
        assertThat(pulled.stderr()).isEqualTo(removed);
        try (Stream<Path> proofs = Files.list(home.resolve("proofs"))) {
            assertThat(proofs.map(p -> p.getFileName().toString()).toList()).containsExactly(TestMedia.sha256(before));
        }
        assertThat(agent.isAlive()).isTrue();

        // plugged in again: a new token to the module, so the agent's login is gone; a restarted agent signs
        Files.delete(hsm.tokenFolder());
        Files.move(away, hsm.tokenFolder());
        ProcessResult back = client(home, "prove", after.toString());
        assertThat(back.exitCode()).as(back.describe()).isEqualTo(61);
        assertThat(back.stderr()).isEqualTo(removed);
        assertThat(client(home, "agent", "--stop").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Process restarted = Daemon.start(home, dir.resolve("agent2.log"), List.of(), env, "agent", "--idle", "5m");
        Daemon.await(dir.resolve("agent2.log"), "agent ready for " + home);
        ProcessResult proved = client(home, "prove", after.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        String sha = TestMedia.sha256(after);
        ProcessResult q = Sqv.verify(home.resolve("proofs").resolve(sha).resolve("pubkey.asc"),
                home.resolve("proofs").resolve(sha).resolve(sha + ".asc"), after);
        assertThat(q.exitCode()).as(q.describe()).isZero();
        assertThat(client(home, "agent", "--stop").exitCode()).isZero();
        assertThat(restarted.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void launcher_startsAnAgentForATokenKey_pinInEnvironment() throws Exception {
        Path home = dir.resolve("home");
        SoftHsm hsm = tokenKey(home, "launch");
        Map<String, String> env = tokenEnv(hsm);
        Path script = ProofModeJar.jar().getParent().getParent().getParent().resolve("proofmode");
        Path socket = home.resolve("agent").resolve("agent.sock");
        Path first = TestMedia.jpeg(dir, "first.jpg", 21);
        Path second = TestMedia.jpeg(dir, "second.jpg", 22);

        Map<String, String> withPin = new HashMap<>(env);
        withPin.put("PROOFMODE_HOME", home.toString());
        ProcessResult alone = launch(script, withPin, "prove", first.toString());
        assertThat(alone.exitCode()).as(alone.describe()).isZero();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(socket) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(socket).as("the agent the launcher started for the token key").exists();

        ProcessResult viaAgent = launch(script, Map.of("PROOFMODE_HOME", home.toString()), "prove", second.toString());
        assertThat(viaAgent.exitCode()).as("no PIN, no token configuration: only the agent can sign: " + viaAgent.describe()).isZero();
        String sha = TestMedia.sha256(second);
        assertThat(Files.readString(home.resolve("proofs").resolve(sha).resolve(sha + ".proof.json")))
                .contains("\"Proof.KeyStorage\":\"pkcs11: SoftHSM project SoftHSM v2\"");
        assertThat(launch(script, Map.of("PROOFMODE_HOME", home.toString()), "agent", "--stop").exitCode()).isZero();
    }

    private ProcessResult launch(Path script, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        Map<String, String> e = new HashMap<>(env);
        e.put("PROOFMODE_NATIVE_CACHE", dir.resolve("native").toString());
        e.put("PROOFMODE_AGENT_IDLE", "2m");
        return ExternalTool.run(cmd, e, TIMEOUT, dir);
    }

    @Test
    void watch_signsEachNewFileThroughTheToken() throws Exception {
        Path home = dir.resolve("home");
        SoftHsm hsm = tokenKey(home, "watch", "--key-type", "rsa3072");
        Map<String, String> env = tokenEnv(hsm);
        Path media = Files.createDirectories(dir.resolve("media"));

        Path log = dir.resolve("watch.log");
        Process watcher = Daemon.start(home, log, List.of(), env, "watch", "--settle-ms", "100", media.toString());
        try {
            Daemon.await(log, " started ");
            Path photo = TestMedia.jpeg(media, "new.jpg", 4);
            Daemon.await(log, " proved path=" + photo);
            String sha = TestMedia.sha256(photo);
            Path folder = home.resolve("proofs").resolve(sha);
            for (String signed : List.of("", ".proof.json", ".proof.csv")) {
                Path data = signed.isEmpty() ? photo : folder.resolve(sha + signed);
                ProcessResult q = Sqv.verify(folder.resolve("pubkey.asc"), folder.resolve(sha + signed + ".asc"), data);
                assertThat(q.exitCode()).as(q.describe()).isZero();
            }
        } finally {
            watcher.destroy();
            assertThat(watcher.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(log)).doesNotContain(" failed ");
    }

    /** A SoftHSM2 token labelled {@code label} and a device key made in it for {@code home} ({@code keys create} with these options). */
    private SoftHsm tokenKey(Path home, String label, String... keyOptions) {
        SoftHsm hsm = SoftHsm.create(dir, label, PIN);
        List<String> args = new ArrayList<>(List.of("keys", "create", "--pkcs11", SoftHsm.MODULE.toString()));
        args.addAll(List.of(keyOptions));
        ProcessResult created = ProofModeJar.at(home).withEnv("PROOFMODE_PIN", PIN).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                .run(args.toArray(String[]::new));
        assertThat(created.exitCode()).as(created.describe()).isZero();
        return hsm;
    }

    private static Map<String, String> tokenEnv(SoftHsm hsm) {
        Map<String, String> env = new HashMap<>(hsm.env());
        env.put("PROOFMODE_PIN", PIN);
        return env;
    }

    private static ProcessResult client(Path home, String... args) {
        return ExternalTool.run(Daemon.command(List.of(), args), Map.of("PROOFMODE_HOME", home.toString()), TIMEOUT);
    }
}
