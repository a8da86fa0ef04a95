// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.cli.agent.AgentClient;
import org.proofmode.cli.agent.AgentInfo;
import org.proofmode.cli.agent.AgentProtocol;
import org.proofmode.cli.agent.AgentServer;
import org.proofmode.cli.agent.UnlockCheck;
import org.proofmode.cli.print.Terminal;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;

/** The agent in this JVM: what it runs, what it refuses, and when it stops. */
class AgentTest {
    private static final String PASSPHRASE = "agent test passphrase";

    @TempDir
    Path dir;

    private record Answer(OptionalInt exit, String out, String err) {}

    private Path home() {
        return dir.resolve("home");
    }

    private SigningKey key() {
        Cli.Result made = new Cli(home()).env("PROOFMODE_PASSPHRASE", PASSPHRASE).run("keys", "create");
        assertThat(made.exit()).as(made.err()).isZero();
        return ProofMode.at(home()).keys().unlock(Passphrase.adopt(PASSPHRASE.toCharArray()));
    }

    private AgentServer start(SigningKey key, Duration idle) {
        AgentServer server = AgentServer.open(home(), ProofMode.at(home()).keys().secretFile(), idle, AgentCommand.runner(key, Optional.empty()));
        Thread t = new Thread(server::serve, "agent-under-test");
        t.setDaemon(true);
        t.start();
        return server;
    }

    private Answer client(Path cwd, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OptionalInt exit = AgentClient.run(args, Map.of("PROOFMODE_HOME", home().toString()), cwd, home(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Answer(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Path photo(Path folder, String name, int seed) throws IOException {
        return Files.write(Files.createDirectories(folder).resolve(name), photoBytes(seed, 4096));
    }

    /** JPEG magic, then random bytes. */
    private static byte[] photoBytes(int seed, int size) {
        byte[] b = new byte[size];
        new java.util.Random(seed).nextBytes(b);
        b[0] = (byte) 0xFF;
        b[1] = (byte) 0xD8;
        b[2] = (byte) 0xFF;
        b[3] = (byte) 0xE0;
        return b;
    }

    @Test
    void lostAgent_exitsAsAnInternalError() {
        assertThat(AgentClient.LOST).isEqualTo(ExitCodes.INTERNAL);
    }

    @Test
    void run_provesRelativeToCallersFolder_withHeldKey() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            assertThat(server.socket()).exists();
            Path work = dir.resolve("work");
            photo(work.resolve("in"), "a.jpg", 1);
            Answer a = client(work, "prove", "--out", "out", "in");
            assertThat(a.exit()).hasValue(0);
            String sha = a.out().substring(0, 64);
            assertThat(a.out()).isEqualTo(sha + "  in/a.jpg\n");
            assertThat(work.resolve("out").resolve(sha).resolve(sha + ".proof.json")).isRegularFile();
            Cli.Result verified = new Cli(home()).run("verify", work.resolve("out").resolve(sha).toString());
            assertThat(verified.exit()).as(verified.out() + verified.err()).isZero();
        }
    }

    @Test
    void serve_givesBackMemoryOnce_settledAfterStartAndAfterEachCommand() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            awaitReleases(server, 1);
            photo(dir.resolve("in"), "m.jpg", 5);
            Answer a = client(dir, "prove", "--out", "out", "in");
            assertThat(a.exit()).as(a.err()).hasValue(0);
            awaitReleases(server, 2);
            Thread.sleep(3000);
            assertThat(server.memoryReleases()).as("not again while unused").isEqualTo(2);
        }
    }

    @Test
    void serve_givesBackMemory_withinASecondOfTheReply() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            awaitReleases(server, 1);
            photo(dir.resolve("in"), "r.jpg", 6);
            for (int i = 0; i < 3; i++) {
                Answer a = client(dir, "prove", "--out", "out" + i, "in");
                long replied = System.nanoTime();
                assertThat(a.exit()).as(a.err()).hasValue(0);
                while (server.memoryReleases() < 2 + i && System.nanoTime() - replied < TimeUnit.SECONDS.toNanos(20)) {
                    Thread.sleep(10);
                }
                // Its own agent between a person's commands is small again at once, not seconds later (it was 2 s).
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - replied)).as("ms from the reply to the release")
                        .isLessThan(1000);
                assertThat(server.memoryReleases()).isEqualTo(2 + i);
            }
        }
    }

    private static void awaitReleases(AgentServer server, long count) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (server.memoryReleases() < count && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(server.memoryReleases()).isEqualTo(count);
    }

    @Test
    void run_verifiesAsAlone_relativePathsFromCallersFolder() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            assertThat(server.socket()).exists();
            Path work = dir.resolve("work");
            photo(work.resolve("in"), "a.jpg", 3);
            photo(work.resolve("in"), "b.jpg", 4);
            Answer proved = client(work, "prove", "--out", "out", "in");
            assertThat(proved.exit()).as(proved.err()).hasValue(0);
            String sha = proved.out().substring(0, 64);
            Path set = work.resolve("out").resolve(sha);
            Path tampered = Files.createDirectories(work.resolve("bad"));
            try (java.util.stream.Stream<Path> files = Files.list(set)) {
                for (Path f : files.toList()) {
                    Files.copy(f, tampered.resolve(f.getFileName()));
                }
            }
            Path json = tampered.resolve(sha + ".proof.json");
            Files.writeString(json, Files.readString(json).replaceFirst("\\{", "{\"Notes\":\"changed\","));
            Files.writeString(work.resolve("not-a-key.asc"), "no key here");
            List<List<String>> commands = List.of(
                    List.of("verify", "out/" + sha),
                    List.of("verify", "--json", "out/" + sha),
                    List.of("verify", "bad"),
                    List.of("verify", "out/" + sha, "missing.zip"),
                    List.of("verify", "--trust", "not-a-key.asc", "out/" + sha),
                    List.of("verify", "--trust", "nowhere.asc", "out/" + sha),
                    List.of("verify", "--require-trusted", "--trust", "/dev/null", "bad"),
                    List.of("verify", "--bogus", "out/" + sha));
            for (List<String> c : commands) {
                Answer viaAgent = client(work, c.toArray(String[]::new));
                assertThat(viaAgent.exit()).as("%s through the agent", c).isPresent();
                Cli.Result alone = inFolder(work, c);
                assertThat(viaAgent.exit().getAsInt()).as("exit of %s: %s", c, viaAgent.err()).isEqualTo(alone.exit());
                // The batch summary's time is the one part that differs from run to run.
                assertThat(withoutTime(viaAgent.out())).as("output of %s", c).isEqualTo(withoutTime(alone.out()));
                assertThat(viaAgent.err()).as("errors of %s", c).isEqualTo(alone.err());
            }
            assertThat(client(work, "verify", "out/" + sha).out()).startsWith("out/" + sha + ": ");
            assertThat(client(work, "verify", "bad").exit()).hasValue(ExitCodes.INVALID);
            assertThat(client(work, "verify", "missing.zip").err()).isEqualTo("proofmode: missing.zip: no such file or folder\n");
        }
    }

    private static String withoutTime(String out) {
        return out.replaceAll("(?m)^(Summary: \\d+ items?) in [0-9.]+ s$", "$1");
    }

    /** {@code proofmode ARGS} run by itself with {@code cwd} as its working folder. */
    private Cli.Result inFolder(Path cwd, List<String> args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.execute(args.toArray(String[]::new), new CliContext(new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(err, true), Map.of("PROOFMODE_HOME", home().toString()), Terminal.NONE, cwd,
                java.util.Optional.empty(), java.util.Optional.empty()));
        return new Cli.Result(code, out.toString(), err.toString());
    }

    @Test
    void run_empty_noAgentRuns() {
        Answer a = client(dir, "prove", "x.jpg");
        assertThat(a.exit()).isEmpty();
        assertThat(a.err()).isEmpty();
    }

    @Test
    void run_empty_socketLeftByDeadAgent() throws Exception {
        Path socket = AgentServer.socket(home());
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertThat(socket).exists();
        assertThat(client(dir, "prove", "x.jpg").exit()).isEmpty();
        assertThat(socket).as("the dead agent's socket, removed so that the launcher starts a new agent").doesNotExist();
        // A new agent takes the place of the dead one.
        try (AgentServer server = start(key(), Duration.ZERO)) {
            assertThat(server.socket()).exists();
            photo(dir, "b.jpg", 2);
            assertThat(client(dir, "prove", "b.jpg").exit()).hasValue(0);
        }
    }

    @Test
    void open_fails_agentRunsAlready() {
        SigningKey key = key();
        try (AgentServer server = start(key, Duration.ZERO)) {
            assertThat(server.socket()).exists();
            assertThatThrownBy(() -> AgentServer.open(home(), ProofMode.at(home()).keys().secretFile(), Duration.ZERO, AgentCommand.runner(key, Optional.empty())))
                    .isInstanceOf(ProofModeException.class).hasMessageContaining("an agent is already running for " + home());
        }
    }

    @Test
    void run_refusedAndAgentStops_keyFileChanged() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            Path keyFile = ProofMode.at(home()).keys().secretFile();
            Files.writeString(keyFile, Files.readString(keyFile) + "\n");
            photo(dir, "c.jpg", 3);
            Answer a = client(dir, "prove", "c.jpg");
            assertThat(a.exit()).isEmpty();
            assertThat(a.err()).isEqualTo("proofmode: agent: the device key changed since the agent unlocked it; the agent "
                    + "stopped; running here\n");
            assertThat(server.socket()).doesNotExist();
        }
    }

    @Test
    void serve_refusesAndStops_otherBuild() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO);
                SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(server.socket()))) {
            new AgentProtocol.Request(AgentProtocol.Kind.RUN, "another build", dir, false, List.of("prove", "x.jpg"), Map.of())
                    .write(new DataOutputStream(AgentProtocol.output(ch)));
            DataInputStream in = new DataInputStream(AgentProtocol.input(ch));
            assertThat(in.read()).isEqualTo(AgentProtocol.REFUSED);
            assertThat(AgentProtocol.readString(in)).contains("another build");
            assertThat(server.socket()).doesNotExist();
        }
    }

    @Test
    void serve_refuses_commandOtherThanProveOrVerify() throws Exception {
        try (AgentServer server = start(key(), Duration.ZERO);
                SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(server.socket()))) {
            new AgentProtocol.Request(AgentProtocol.Kind.RUN, AgentProtocol.build(), dir, false, List.of("keys", "export"), Map.of())
                    .write(new DataOutputStream(AgentProtocol.output(ch)));
            DataInputStream in = new DataInputStream(AgentProtocol.input(ch));
            assertThat(in.read()).isEqualTo(AgentProtocol.REFUSED);
            assertThat(AgentProtocol.readString(in)).isEqualTo("the agent runs 'prove', 'verify', 'export', 'status' and 'compare' only");
            assertThat(server.socket()).exists();
        }
    }

    @Test
    void run_stopsProvingFilesNotStarted_callerGoneAfterFirstResult() throws Exception {
        Path in = dir.resolve("many");
        for (int i = 0; i < 300; i++) {
            Files.write(Files.createDirectories(in).resolve(String.format("m%03d.jpg", i)), photoBytes(i, 1 << 20));
        }
        try (AgentServer server = start(key(), Duration.ZERO)) {
            SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(server.socket()));
            new AgentProtocol.Request(AgentProtocol.Kind.RUN, AgentProtocol.build(), dir, false,
                    List.of("prove", "--jobs", "1", "--out", "out", "many"), Map.of("PROOFMODE_HOME", home().toString()))
                    .write(new DataOutputStream(AgentProtocol.output(ch)));
            DataInputStream answer = new DataInputStream(AgentProtocol.input(ch));
            assertThat(answer.read()).as("the first file's output line").isEqualTo(AgentProtocol.OUT);
            ch.close();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (server.serving() > 0 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(server.serving()).isZero();
            try (java.util.stream.Stream<Path> sets = Files.list(dir.resolve("out"))) {
                assertThat(sets.filter(p -> !p.getFileName().toString().startsWith(".")).count()).isBetween(1L, 100L);
            }
        }
    }

    @Test
    void stop_stopsAgent_running() {
        try (AgentServer server = start(key(), Duration.ZERO)) {
            assertThat(AgentClient.stop(home())).isTrue();
            assertThat(server.socket()).doesNotExist();
            assertThat(AgentClient.stop(home())).isFalse();
        }
    }

    @Test
    void serve_returns_idleLongerThanAllowed() throws Exception {
        AgentServer server = AgentServer.open(home(), ProofMode.at(home()).keys().secretFile(), Duration.ofMillis(200), AgentCommand.runner(key(), Optional.empty()));
        Thread t = new Thread(server::serve);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t.isAlive()).isFalse();
        assertThat(server.socket()).doesNotExist();
    }

    @Test
    void parse_readsIdleTimes() {
        assertThat(AgentCommand.parse("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(AgentCommand.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(AgentCommand.parse("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(AgentCommand.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(AgentCommand.parse("0")).isZero();
        assertThatThrownBy(() -> AgentCommand.parse("soon")).isInstanceOf(ProofModeException.class)
                .hasMessage("--idle: soon is not a time like 90, 30s, 10m or 2h");
    }

    /** An agent as 'proofmode agent' runs it: unlocked with PASSPHRASE, which it remembers the check of. */
    private AgentServer startChecked(Duration idle, Thread[] serving) {
        AgentServer server = AgentServer.open(home(), ProofMode.at(home()).keys().secretFile(), idle,
                AgentCommand.runner(key(), Optional.empty()), Optional.of(UnlockCheck.unlockedWith(PASSPHRASE.toCharArray(), false)));
        Thread t = new Thread(server::serve, "agent-under-test");
        t.setDaemon(true);
        t.start();
        serving[0] = t;
        return server;
    }

    private Answer clientWith(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> e = new HashMap<>(env);
        e.put("PROOFMODE_HOME", home().toString());
        OptionalInt exit = AgentClient.run(args, e, dir, home(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Answer(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void run_refusedThenLocked_passphraseOtherThanAgents() throws Exception {
        Thread[] t = new Thread[1];
        try (AgentServer server = startChecked(Duration.ZERO, t)) {
            Path photo = ProveCommandTest.jpeg(dir.resolve("in"), "a.jpg", 64, 1);
            Answer wrong = clientWith(Map.of("PROOFMODE_PASSPHRASE", "not the passphrase"), "prove", photo.toString());
            assertThat(wrong.exit()).as("refused: the launcher runs it alone").isEmpty();
            assertThat(wrong.err()).isEqualTo("proofmode: agent: the command's PROOFMODE_PASSPHRASE is not the one the agent unlocked "
                    + "the key with; running here\n");
            // Alone, as the launcher then runs it: the wrong passphrase fails as documented.
            Cli.Result alone = new Cli(home()).env("PROOFMODE_PASSPHRASE", "not the passphrase").run("prove", photo.toString());
            assertThat(alone.exit()).as(alone.err()).isEqualTo(ExitCodes.KEY_LOCKED);
            assertThat(server.socket()).exists();

            Answer right = clientWith(Map.of("PROOFMODE_PASSPHRASE", PASSPHRASE), "prove", photo.toString());
            assertThat(right.exit()).as(right.err()).hasValue(0);
            Answer none = clientWith(Map.of(), "verify", photo.toString());
            assertThat(none.exit()).as(none.err()).hasValue(0);
        }
    }

    @Test
    void serve_returnsAndRemovesSocket_homeRemoved() throws Exception {
        Thread[] t = new Thread[1];
        AgentServer server = startChecked(Duration.ofMinutes(10), t);
        assertThat(AgentInfo.running(home())).isPresent();
        try (Stream<Path> all = Files.walk(home())) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertThat(home()).doesNotExist();
        t[0].join(TimeUnit.SECONDS.toMillis(30));
        assertThat(t[0].isAlive()).as("the agent still serves a removed home").isFalse();
        assertThat(server.socket()).doesNotExist();
    }

    @Test
    void status_listsRunningAgent_textAndJson() throws Exception {
        Thread[] t = new Thread[1];
        try (AgentServer server = startChecked(Duration.ofMinutes(10), t)) {
            long pid = ProcessHandle.current().pid();
            Cli.Result text = new Cli(home()).run("status");
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out()).containsPattern("(?m)^agent: +running \\(pid " + pid + ", since " + server.info().since()
                    + ", \\d+ MiB resident, stops after 10 min unused\\): it keeps the key unlocked; 'proofmode lock' ends it$");

            Cli.Result json = new Cli(home()).run("status", "--json");
            JsonNode agent = new ObjectMapper().readTree(json.out()).get("agent");
            assertThat(agent.get("running").asBoolean()).isTrue();
            assertThat(agent.get("pid").asLong()).isEqualTo(pid);
            assertThat(agent.get("since").asText()).isEqualTo(server.info().since().toString());
            assertThat(agent.get("idleTimeoutSeconds").asLong()).isEqualTo(600);
            assertThat(agent.get("residentBytes").asLong()).isPositive();
        }
        assertThat(new Cli(home()).run("status").out()).containsPattern("(?m)^agent: +not running$");
        assertThat(new ObjectMapper().readTree(new Cli(home()).run("status", "--json").out()).get("agent").get("running").asBoolean())
                .isFalse();
    }

    @Test
    void running_empty_infoLeftByKilledAgent() throws IOException {
        key();
        Path info = Files.createDirectories(home().resolve("agent")).resolve("agent.info");
        Files.writeString(info, Long.MAX_VALUE / 2 + "\n2026-01-01T00:00:00Z\n600\n");
        assertThat(AgentInfo.running(home())).isEmpty();
    }
}
