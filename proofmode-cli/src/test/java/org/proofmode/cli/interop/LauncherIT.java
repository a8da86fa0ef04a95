// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The {@code proofmode} launcher script at the top of the repository, as a user runs it from a checkout:
 * a command started through it gets its signals itself, also on the first run after a build (when the
 * launcher records the command's class-data archive), and never outlives a launcher that was killed.
 */
class LauncherIT {
    @TempDir
    Path dir;

    @AfterEach
    void killLeftovers() {
        processesNaming(dir).forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    void watch_endsWithLauncher_launcherKilledOnFirstRun() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path watched = Files.createDirectories(dir.resolve("watched"));
        Path jar = ProofModeJar.jar();
        Path script = jar.getParent().getParent().getParent().resolve("proofmode");
        assertThat(script).isRegularFile();
        // No archive for `watch` yet: this is the run that records one.
        Path archive = jar.resolveSibling("proofmode-watch.jsa");
        Files.deleteIfExists(archive);
        try (Stream<Path> s = Files.list(jar.getParent())) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith("proofmode-watch.jsa.")).toList()) {
                Files.deleteIfExists(p);
            }
        }

        Path log = dir.resolve("watch.log");
        ProcessBuilder b = new ProcessBuilder("bash", script.toString(), "watch", watched.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        b.environment().put("PROOFMODE_HOME", home.toString());
        b.environment().put("PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE);
        b.environment().remove("PROOFMODE_CDS");
        b.environment().remove("JAVA_OPTS");
        Process launcher = b.start();
        try {
            Daemon.await(log, " started ");
            assertThat(processesNaming(watched)).as("the watcher's JVM").isNotEmpty();

            launcher.destroy(); // SIGTERM to the process the user started
            assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).isTrue();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!processesNaming(watched).isEmpty() && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertThat(processesNaming(watched)).as("processes still watching " + watched + " after the launcher was killed")
                    .isEmpty();
        } finally {
            launcher.destroyForcibly();
        }

        // The classes the killed run listed become the archive, made in the background by the next run of
        // the command (which runs without one meanwhile) ...
        assertThat(watchMissing(script, home, null)).isEqualTo(61);
        long until2 = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!(Files.isRegularFile(archive) && archiveWork(jar).isEmpty()) && System.nanoTime() < until2) {
            Thread.sleep(200);
        }
        assertThat(archive).as("the archive made from the killed run's list").isRegularFile();
        assertThat(archiveWork(jar)).as("no list, dump or temporary archive left").isEmpty();
        // ... which the runs after it map: picocli's classes (Java 5 class files, which only a static archive holds) too.
        Path loaded = dir.resolve("classes.log");
        assertThat(watchMissing(script, home, "-Xlog:class+load=info:file=" + loaded)).isEqualTo(61);
        assertThat(Files.readAllLines(loaded)).anySatisfy(l -> assertThat(l).contains(" picocli.CommandLine$Model$CommandSpec ", "shared objects file"))
                .anySatisfy(l -> assertThat(l).contains(" org.proofmode.cli.Main ", "shared objects file"));
    }

    /** The class list, dump under way, temporary archive or failure mark of {@code watch}'s archive. */
    private static List<String> archiveWork(Path jar) throws java.io.IOException {
        try (Stream<Path> s = Files.list(jar.getParent())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("proofmode-watch.jsa.")).toList();
        }
    }

    /**
     * Runs {@code proofmode watch} of a missing folder through the repository's launcher (a run of the
     * command that ends at once; its help would map help's own archive); returns its exit code.
     */
    private int watchMissing(Path script, Path home, String javaOpts) throws Exception {
        ProcessBuilder again = new ProcessBuilder("bash", script.toString(), "watch", dir.resolve("missing").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("again.log").toFile());
        again.environment().put("PROOFMODE_HOME", home.toString());
        again.environment().remove("PROOFMODE_CDS");
        if (javaOpts == null) {
            again.environment().remove("JAVA_OPTS");
        } else {
            again.environment().put("JAVA_OPTS", javaOpts);
        }
        Process help = again.start();
        assertThat(help.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return help.exitValue();
    }

    @Test
    void prove_startsAgentForNextCalls_passphraseInEnvironment() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path script = ProofModeJar.jar().getParent().getParent().getParent().resolve("proofmode");
        Path photo = TestMedia.jpeg(dir, "a.jpg", 11);
        Path second = TestMedia.jpeg(dir, "b.jpg", 12);
        Path socket = home.resolve("agent").resolve("agent.sock");

        // Off: the command runs alone and starts nothing.
        ProcessResult off = launch(script, Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE",
                ProofModeJar.PASSPHRASE, "PROOFMODE_AGENT", "off"), "prove", "--out", "off", photo.toString());
        assertThat(off.exitCode()).as(off.describe()).isZero();
        Thread.sleep(3000);
        assertThat(socket).doesNotExist();

        double firstStarted = uptimeSeconds();
        ProcessResult first = launch(script, Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE",
                ProofModeJar.PASSPHRASE), "prove", "--out", "out", photo.toString());
        assertThat(first.exitCode()).as(first.describe()).isZero();
        double firstEnded = uptimeSeconds();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(socket) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(socket).as("the agent the launcher started").exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent()))).isEqualTo("rwx------");
        // The agent's JVM started once the first command had ended, not beside it: both times as the kernel
        // counts them since boot (a process's start time in clock ticks of 1/100 s, /proc/uptime).
        List<ProcessHandle> agents = processesNaming(ProofModeJar.jar()).stream()
                .filter(p -> p.info().commandLine().map(c -> c.contains(" agent --idle")).orElse(false))
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .filter(p -> startedSeconds(p) > firstStarted).toList();
        assertThat(agents).hasSize(1);
        assertThat(agents.get(0).info().commandLine().orElseThrow()).as("the agent's JVM options")
                .contains(" -XX:+UseSerialGC -Xms8m -Xmx512m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps -XX:TrimNativeHeapInterval=1000 ");
        assertThat(startedSeconds(agents.get(0))).as("the agent's start, against the first command's end at %.2f s", firstEnded)
                .isGreaterThan(firstEnded - 0.2);

        // Without the passphrase only the agent can sign: the next call is proved by it.
        ProcessResult next = launch(script, Map.of("PROOFMODE_HOME", home.toString()), "prove", "--out", "out", second.toString());
        assertThat(next.exitCode()).as(next.describe()).isZero();
        assertThat(next.stdout()).isEqualTo(TestMedia.sha256(second) + "  " + second + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-------");
        ProcessResult verified = launch(script, Map.of("PROOFMODE_HOME", home.toString()), "verify",
                dir.resolve("out").resolve(TestMedia.sha256(second)).toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();

        ProcessResult stop = launch(script, Map.of("PROOFMODE_HOME", home.toString()), "agent", "--stop");
        assertThat(stop.exitCode()).as(stop.describe()).isZero();
        assertThat(socket).doesNotExist();
    }

    @Test
    void quickStart_optimisingCompilerOnlyForHashing_forFilesNamedOnTheCommandLine() throws Exception {
        Path photo = TestMedia.jpeg(dir, "a.jpg", 13);
        Path large = TestMedia.jpeg(dir, "large.jpg", 9L << 20, 7);
        Path out = Files.createDirectories(dir.resolve("out"));
        Path other = Files.createDirectories(dir.resolve("other"));
        Path launcher = launcherDir();
        String hashing = "-XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:CompilerDirectivesFile=" + launcher.resolve("hashing.jit")
                + " -XX:-DisplayVMOutput";
        String clientOnly = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
        assertThat(quickStart(Map.of(), "prove", "--out", out.toString(), photo.toString())).isEqualTo(hashing);
        assertThat(quickStart(Map.of(), "verify", "--json", photo.toString())).isEqualTo(hashing);
        assertThat(quickStart(Map.of(), "prove", photo.toString(), large.toString())).as("more than 8 MiB").isEqualTo(hashing);
        assertThat(quickStart(Map.of(), "verify", "--media", large.toString(), out.toString()))
                .as("a file and the folder of its proof").isEqualTo(hashing);
        assertThat(quickStart(Map.of(), "verify", "--media", photo.toString(), out.toString())).isEqualTo(hashing);
        assertThat(quickStart(Map.of(), "verify", large.toString(), out.toString())).as("a folder without --media").isEmpty();
        assertThat(quickStart(Map.of(), "verify", "--media", large.toString(), out.toString(), other.toString()))
                .as("two folders").isEmpty();
        assertThat(quickStart(Map.of(), "prove", dir.toString())).as("a folder").isEmpty();
        assertThat(quickStart(Map.of(), "prove", photo.toString(), dir.toString())).as("a file and a folder").isEmpty();
        assertThat(quickStart(Map.of(), "verify", "0".repeat(64))).as("a stored proof's hash").isEmpty();
        assertThat(quickStart(Map.of(), "prove", "--jobs", "2", photo.toString())).as("an option value of ours").isEmpty();
        assertThat(quickStart(Map.of(), "export", photo.toString())).isEmpty();
        assertThat(quickStart(Map.of(), "--help")).as("help prints and ends").isEqualTo(clientOnly);
        assertThat(quickStart(Map.of(), "prove", "--help")).isEqualTo(clientOnly);
        assertThat(quickStart(Map.of(), "keys", "create", "-h")).isEqualTo(clientOnly);
        assertThat(quickStart(Map.of(), "help", "prove")).isEqualTo(clientOnly);
        assertThat(quickStart(Map.of(), "--version")).isEqualTo(clientOnly);
        assertThat(quickStart(Map.of(), "status")).isEmpty();
        assertThat(quickStart(Map.of("JAVA_OPTS", "-XX:+UseParallelGC"), "--help")).isEmpty();
        assertThat(quickStart(Map.of("JAVA_OPTS", "-XX:+UseParallelGC"), "prove", photo.toString())).isEmpty();
        assertThat(quickStart(Map.of("JAVA_OPTS", "-XX:CompileThreshold=100"), "prove", large.toString())).isEmpty();
        assertThat(quickStart(Map.of("PROOFMODE_QUICK", "off"), "prove", photo.toString())).isEmpty();
        assertThat(quickStart(Map.of("PROOFMODE_QUICK", "off"), "prove", large.toString())).isEmpty();
        assertThat(quickStart(Map.of("PROOFMODE_CLIENT_OPTS", "-XX:+UseSerialGC"), "prove", photo.toString()))
                .as("a JVM that hands the command to the agent has its own options").isEmpty();
        // Without the directives (none beside the launcher, or options that a space would split): the client
        // compiler alone for small files, the defaults for large ones.
        assertThat(quickStart(dir, Map.of(), "prove", photo.toString())).isEqualTo(clientOnly);
        assertThat(quickStart(dir, Map.of(), "prove", large.toString())).isEmpty();
        Path spaced = Files.createDirectories(dir.resolve("a launcher"));
        Files.copy(launcher.resolve("hashing.jit"), spaced.resolve("hashing.jit"));
        assertThat(quickStart(spaced, Map.of(), "prove", photo.toString())).isEqualTo(clientOnly);
        assertThat(quickStart(spaced, Map.of(), "prove", large.toString())).isEmpty();

        // The JVM takes the directives (a file it cannot parse stops it), and its notice of them is not output:
        // a large file proved and verified under them says what it says without them, and nothing else.
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        List<String> options = List.of(hashing.split(" "));
        ProcessResult proved = pm.runJvm(options, java.time.Duration.ofSeconds(120), "prove", "--out", out.toString(), large.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        assertThat(proved.stdout()).isEqualTo(TestMedia.sha256(large) + "  " + large + "\n");
        assertThat(proved.stderr()).doesNotContain("directive");
        Path proof = out.resolve(TestMedia.sha256(large));
        ProcessResult checked = pm.runJvm(options, java.time.Duration.ofSeconds(120), "verify", "--media", large.toString(), proof.toString());
        ProcessResult plain = pm.runJvm(List.of(), java.time.Duration.ofSeconds(120), "verify", "--media", large.toString(), proof.toString());
        assertThat(checked.exitCode()).as(checked.describe()).isZero();
        assertThat(checked.stdout()).contains("TRUSTED").isEqualTo(plain.stdout());
        assertThat(checked.stderr()).isEqualTo(plain.stderr());
    }

    @Test
    void repositoryLauncher_buildsWhenABuildFileOrSourceIsNewerThanTheJar_andOnlyThen() throws Exception {
        Path repo = ProofModeJar.jar().getParent().getParent().getParent();
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(repo.resolve("proofmode"), checkout.resolve("proofmode"));
        Path launcherDir = Files.createDirectories(checkout.resolve("proofmode-cli/src/main/launcher"));
        Files.copy(repo.resolve("proofmode-cli/src/main/launcher/agent.sh"), launcherDir.resolve("agent.sh"));
        Path jar = Files.createDirectories(checkout.resolve("proofmode-cli/target")).resolve("proofmode.jar");
        Files.copy(ProofModeJar.jar(), jar); // a copy: its time is set below (a link would change the build's jar)
        java.nio.file.attribute.FileTime built = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(jar, built);
        Files.writeString(checkout.resolve("pom.xml"), "<project/>");
        for (String m : List.of("proofmode-core", "proofmode-cli", "proofmode-server", "proofmode-watch")) {
            Files.writeString(Files.createDirectories(checkout.resolve(m + "/src/main/java/org/x")).resolve("A.java"), "class A {}");
            Files.writeString(checkout.resolve(m).resolve("pom.xml"), "<project/>");
        }
        Path hidden = Files.writeString(Files.createDirectories(checkout.resolve("proofmode-core/src/main/resources")).resolve(".kept"), "x");
        Path folder = checkout.resolve("proofmode-server/src/main/java/org/x");
        java.nio.file.attribute.FileTime before = java.nio.file.attribute.FileTime.from(built.toInstant().minusSeconds(3600));
        java.nio.file.attribute.FileTime after = java.nio.file.attribute.FileTime.from(built.toInstant().plusSeconds(60));
        Map<String, String> env = Map.of("PROOFMODE_AGENT", "off", "PROOFMODE_CDS", "0", "PROOFMODE_HOME", dir.resolve("home").toString());

        for (Path newer : List.of(checkout.resolve("proofmode-watch/src/main/java/org/x/A.java"), hidden, folder,
                checkout.resolve("proofmode-cli/pom.xml"), checkout.resolve("pom.xml"))) {
            agedExceptTheJar(checkout, jar, before);
            ProcessResult unchanged = ExternalTool.run(List.of("bash", checkout.resolve("proofmode").toString(), "--version"), env,
                    java.time.Duration.ofSeconds(60), dir);
            assertThat(unchanged.exitCode()).as(unchanged.describe()).isZero();
            assertThat(unchanged.stdout()).startsWith("proofmode ");
            assertThat(unchanged.stderr()).doesNotContain("building");

            Files.setLastModifiedTime(newer, after);
            ProcessResult changed = ExternalTool.run(List.of("bash", checkout.resolve("proofmode").toString(), "--version"), env,
                    java.time.Duration.ofSeconds(60), dir);
            // this checkout has no Maven wrapper: the build the launcher starts fails, which shows it started one
            assertThat(changed.stderr()).as(newer + " newer than the jar").contains("building the command line", "build failed");
            assertThat(changed.exitCode()).isEqualTo(1);
        }
    }

    /** Sets every file and folder of a checkout but the jar to {@code t}, folders after what they hold. */
    private static void agedExceptTheJar(Path checkout, Path jar, java.nio.file.attribute.FileTime t) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(checkout)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!p.equals(jar)) {
                    Files.setLastModifiedTime(p, t);
                }
            }
        }
    }

    @Test
    void privateTmp_javaTmpdirInsideTheHome_encryptedHomeOnly() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain-home"));
        assertThat(privateTmp(plain, Map.of())).isEqualTo("opts=\n");
        assertThat(plain.resolve("tmp")).doesNotExist();

        Path home = Files.createDirectories(dir.resolve("sealed-home/keys")).getParent();
        Files.writeString(home.resolve("keys/store-recipient.txt"), "age1example\n");
        String opts = "-Djava.io.tmpdir=" + home.resolve("tmp") + " -XX:-UsePerfData";
        assertThat(privateTmp(home, Map.of())).isEqualTo("opts=" + opts + "\ntmpdir=" + home.resolve("tmp") + "\n");
        assertThat(Files.getPosixFilePermissions(home.resolve("tmp")))
                .containsExactlyInAnyOrderElementsOf(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        // The JVM takes it: its temporary folder is inside the home.
        ProcessResult jvm = ExternalTool.run(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Djava.io.tmpdir=" + home.resolve("tmp"), "-XX:-UsePerfData", "-XshowSettings:properties", "-version"),
                Map.of(), java.time.Duration.ofSeconds(60), dir);
        assertThat(jvm.stderr()).contains("java.io.tmpdir = " + home.resolve("tmp"));
        // JAVA_OPTS that choose a folder, and a home whose path a space would split, are left alone.
        assertThat(privateTmp(home, Map.of("JAVA_OPTS", "-Djava.io.tmpdir=/var/tmp"))).isEqualTo("opts=\n");
        Path spaced = Files.createDirectories(dir.resolve("a home/keys")).getParent();
        Files.writeString(spaced.resolve("keys/store-recipient.txt"), "age1example\n");
        assertThat(privateTmp(spaced, Map.of())).isEqualTo("opts=\n");
    }

    /** What {@code proofmode_private_tmp} of both launchers sets for this home: its options, and TMPDIR when it sets one. */
    private String privateTmp(Path home, Map<String, String> env) {
        Path agentSh = launcherDir().resolve("agent.sh");
        Map<String, String> e = new java.util.HashMap<>(Map.of("JAVA_OPTS", "", "PROOFMODE_HOME", home.toString()));
        e.putAll(env);
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("sh").toString(), "-c",
                "unset TMPDIR; . \"$0\"; proofmode_private_tmp; printf 'opts=%s\\n' \"$PROOFMODE_TMP_OPTS\"; "
                        + "[ -z \"${TMPDIR:-}\" ] || printf 'tmpdir=%s\\n' \"$TMPDIR\"", agentSh.toString()),
                e, java.time.Duration.ofSeconds(30), dir);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout();
    }

    @Test
    void agentOptions_smallHeapSerialCollectorNativeTrim_forTheAgentOnly() throws Exception {
        String all = "-XX:+UseSerialGC -Xms8m -Xmx512m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps -XX:TrimNativeHeapInterval=1000";
        assertThat(agentOptions(Map.of(), "agent")).isEqualTo(all);
        assertThat(agentOptions(Map.of(), "agent", "--idle", "2h", "--passphrase-file", "p")).isEqualTo(all);
        assertThat(agentOptions(Map.of(), "--stacktrace", "agent")).isEqualTo(all);
        assertThat(agentOptions(Map.of(), "agent", "--stop")).isEmpty();
        assertThat(agentOptions(Map.of(), "agent", "--help")).isEmpty();
        assertThat(agentOptions(Map.of(), "prove", "agent")).as("a file named agent").isEmpty();
        assertThat(agentOptions(Map.of(), "lock")).isEmpty();
        assertThat(agentOptions(Map.of("JAVA_OPTS", "-Xmx64m"), "agent")).isEqualTo("-XX:TrimNativeHeapInterval=1000");
        assertThat(agentOptions(Map.of("JAVA_OPTS", "-XX:+UseG1GC"), "agent")).isEqualTo("-XX:TrimNativeHeapInterval=1000");
        assertThat(agentOptions(Map.of("JAVA_OPTS", "-XX:TrimNativeHeapInterval=0"), "agent"))
                .isEqualTo("-XX:+UseSerialGC -Xms8m -Xmx512m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps");
        // A JVM that does not know the trimming option (before 17.0.9) would not start with it: it is asked first.
        Path old = dir.resolve("old-java");
        Files.writeString(old, "#!/bin/sh\ncase \"$*\" in *TrimNativeHeap*) exit 1 ;; esac\nexit 0\n");
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rwx------"));
        assertThat(agentOptions(old.toString(), Map.of(), "agent"))
                .isEqualTo("-XX:+UseSerialGC -Xms8m -Xmx512m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps");
    }

    /** What {@code proofmode_agent} of both launchers sets PROOFMODE_AGENT_OPTS to for these arguments. */
    private String agentOptions(Map<String, String> env, String... args) {
        return agentOptions(ExternalTool.require("java").toString(), env, args);
    }

    private String agentOptions(String javaCommand, Map<String, String> env, String... args) {
        Path agentSh = launcherDir().resolve("agent.sh");
        List<String> cmd = new java.util.ArrayList<>(List.of(ExternalTool.require("sh").toString(), "-c",
                ". \"$0\"; proofmode_agent \"$@\"; printf %s \"$PROOFMODE_AGENT_OPTS\"", agentSh.toString(),
                javaCommand, ProofModeJar.jar().toString(), launcherDir().toString()));
        cmd.addAll(List.of(args));
        Map<String, String> e = new java.util.HashMap<>(Map.of("JAVA_OPTS", "", "PROOFMODE_AGENT", "",
                "PROOFMODE_HOME", dir.resolve("no-home").toString()));
        e.putAll(env);
        ProcessResult r = ExternalTool.run(cmd, e, java.time.Duration.ofSeconds(30), dir);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout();
    }

    @Test
    void packageLauncher_makesThisUsersArchive_onFirstUse_inPosixSh() throws Exception {
        Path bin = packageLauncher();
        Map<String, String> env = packageEnv();
        List<String> version = List.of(ExternalTool.require("sh").toString(), bin.toString(), "--version");
        Path versions = dir.resolve("cache/proofmode/cds/1.2.3");
        Path archive = versions.resolve("proofmode-default.jsa");

        // The first run lists its classes, the second makes the archive in the background, the third maps it.
        for (int run = 1; run <= 2; run++) {
            ProcessResult r = ExternalTool.run(version, env, java.time.Duration.ofSeconds(60), dir);
            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(r.stdout()).startsWith("proofmode ");
        }
        awaitAlone(archive);
        assertThat(listing(versions)).as("the archive alone, no list or dump left").containsExactly("proofmode-default.jsa");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(versions))).isEqualTo("rwx------");
        Path loaded = dir.resolve("classes.log");
        env.put("JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded);
        ProcessResult mapped = ExternalTool.run(version, env, java.time.Duration.ofSeconds(60), dir);
        assertThat(mapped.exitCode()).as(mapped.describe()).isZero();
        assertThat(mapped.stderr()).isEmpty();
        assertThat(Files.readAllLines(loaded)).anySatisfy(l -> assertThat(l).contains(" org.proofmode.cli.Main ", "shared objects file"))
                .anySatisfy(l -> assertThat(l).contains(" picocli.CommandLine ", "shared objects file"));

        // PROOFMODE_CDS=0: no archive, no list.
        env.put("PROOFMODE_CDS", "0");
        env.put("JAVA_OPTS", "");
        ProcessResult off = ExternalTool.run(List.of(ExternalTool.require("sh").toString(), bin.toString(), "keys", "--help"),
                env, java.time.Duration.ofSeconds(60), dir);
        assertThat(off.exitCode()).as(off.describe()).isZero();
        assertThat(listing(versions)).containsExactly("proofmode-default.jsa");
    }

    @Test
    void commandHelp_mapsHelpsArchiveWithItsOwnClasses_archiveListedByTopLevelHelp() throws Exception {
        Path bin = packageLauncher();
        Map<String, String> env = packageEnv();
        String sh = ExternalTool.require("sh").toString();
        Path versions = dir.resolve("cache/proofmode/cds/1.2.3");
        Path archive = versions.resolve("proofmode-help.jsa");

        // `proofmode --help` lists help's classes, then makes help's archive; every command's help maps it.
        for (int run = 1; run <= 2; run++) {
            ProcessResult r = ExternalTool.run(List.of(sh, bin.toString(), "--help"), env, java.time.Duration.ofSeconds(120), dir);
            assertThat(r.exitCode()).as(r.describe()).isZero();
        }
        awaitAlone(archive);
        assertThat(listing(versions)).as("help's archive alone, no list or dump left").containsExactly("proofmode-help.jsa");

        // The options, mixins and subcommands of other commands' help come from it, not from the jar.
        Path loaded = dir.resolve("classes.log");
        env.put("JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded);
        for (List<String> args : List.of(List.of("prove", "--help"), List.of("keys", "create", "--help"))) {
            List<String> command = new java.util.ArrayList<>(List.of(sh, bin.toString()));
            command.addAll(args);
            ProcessResult mapped = ExternalTool.run(command, env, java.time.Duration.ofSeconds(60), dir);
            assertThat(mapped.exitCode()).as(mapped.describe()).isZero();
            assertThat(mapped.stderr()).isEmpty();
            List<String> lines = Files.readAllLines(loaded);
            List<String> names = args.get(0).equals("prove") ? List.of("KeyOptions", "ContextOptions", "TimestampOptions")
                    : List.of("KeysCreateCommand", "KeyOptions");
            for (String name : names) {
                assertThat(lines).as(String.join(" ", args) + ": " + name)
                        .anySatisfy(l -> assertThat(l).contains(" org.proofmode.cli." + name + " ", "shared objects file"));
            }
            // The help itself is the same as without any archive.
            Map<String, String> plain = new java.util.HashMap<>(env);
            plain.put("PROOFMODE_CDS", "0");
            plain.put("JAVA_OPTS", "");
            assertThat(ExternalTool.run(command, plain, java.time.Duration.ofSeconds(60), dir).stdout()).isEqualTo(mapped.stdout());
        }
    }

    /** The environment of a user whose cache is in {@code dir}, with no agent and no JAVA_OPTS. */
    private Map<String, String> packageEnv() {
        return new java.util.HashMap<>(Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString(), "PROOFMODE_AGENT", "off",
                "PROOFMODE_HOME", dir.resolve("home").toString(), "JAVA_OPTS", ""));
    }

    /** Waits (90 s at most) until the archive is made and its folder holds nothing else: no list or dump. */
    private static void awaitAlone(Path archive) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!(Files.isRegularFile(archive) && listing(archive.getParent()).equals(List.of(archive.getFileName().toString())))
                && System.nanoTime() < until) {
            Thread.sleep(200);
        }
    }

    /** bin/proofmode as packaging/build.sh writes it, in a folder laid out as the packages' (lib/app, lib/runtime). */
    private Path packageLauncher() throws java.io.IOException {
        Path repo = ProofModeJar.jar().getParent().getParent().getParent();
        String build = Files.readString(repo.resolve("packaging/build.sh"));
        int from = build.indexOf("<<'LAUNCHER'\n") + "<<'LAUNCHER'\n".length();
        String launcher = build.substring(from, build.indexOf("\nLAUNCHER\n", from) + 1).replace("@VERSION@", "1.2.3");
        Path app = dir.resolve("app");
        Path bin = Files.createDirectories(app.resolve("bin")).resolve("proofmode");
        Files.writeString(bin, launcher);
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lib = Files.createDirectories(app.resolve("lib/app"));
        Files.copy(ProofModeJar.jar(), lib.resolve("proofmode.jar"));
        for (String f : List.of("agent.sh", "agent-client.py", "hashing.jit")) {
            Files.copy(launcherDir().resolve(f), lib.resolve(f));
        }
        Files.createSymbolicLink(app.resolve("lib/runtime"), Path.of(System.getProperty("java.home")));
        return bin;
    }

    private static List<String> listing(Path folder) throws java.io.IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The folder of both launchers' shared part (agent.sh) and what it reads (hashing.jit). */
    private static Path launcherDir() {
        return ProofModeJar.jar().getParent().getParent().resolve("src/main/launcher");
    }

    /** What {@code proofmode_quick_start} of both launchers chooses for these arguments, run by {@code sh}. */
    private String quickStart(Map<String, String> env, String... args) {
        return quickStart(launcherDir(), env, args);
    }

    /** The same, with {@code launcher} as the folder that would hold hashing.jit. */
    private String quickStart(Path launcher, Map<String, String> env, String... args) {
        Path agentSh = launcherDir().resolve("agent.sh");
        List<String> cmd = new java.util.ArrayList<>(List.of(ExternalTool.require("sh").toString(), "-c",
                ". \"$0\"; proofmode_quick_start \"$@\"; printf %s \"$PROOFMODE_QUICK_OPTS\"", agentSh.toString(),
                launcher.toString()));
        cmd.addAll(List.of(args));
        Map<String, String> e = new java.util.HashMap<>(Map.of("JAVA_OPTS", "", "PROOFMODE_QUICK", "", "PROOFMODE_CLIENT_OPTS", ""));
        e.putAll(env);
        ProcessResult r = ExternalTool.run(cmd, e, java.time.Duration.ofSeconds(30), dir);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout();
    }

    private ProcessResult launch(Path script, Map<String, String> env, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("PROOFMODE_NATIVE_CACHE", dir.resolve("native").toString());
        e.put("PROOFMODE_AGENT_IDLE", "2m");
        return ExternalTool.run(cmd, e, java.time.Duration.ofSeconds(180), dir);
    }

    @Test
    void launcher_saysOnceOnTerminal_agentKeepsKeyUnlocked_wrongPassphraseRunsAlone() throws Exception {
        Path home = dir.resolve("home");
        assertThat(ProofModeJar.at(home).run("keys", "create").exitCode()).isZero();
        Path script = ProofModeJar.jar().getParent().getParent().getParent().resolve("proofmode");
        Path socket = home.resolve("agent").resolve("agent.sock");
        Map<String, String> env = Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE);
        String notice = "proofmode: an agent keeps the key unlocked for 2 minutes: 'proofmode lock' ends it";

        // On a terminal (script(1) gives the launcher one): said when the agent is started, and only then.
        ProcessResult first = onTerminal(script, env, "prove", "--out", "out", TestMedia.jpeg(dir, "t1.jpg", 31).toString());
        assertThat(first.exitCode()).as(first.describe()).isZero();
        assertThat(first.stdout().split(java.util.regex.Pattern.quote(notice), -1)).as(first.stdout()).hasSize(2);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(socket) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(socket).as("the agent the launcher started").exists();
        ProcessResult next = onTerminal(script, env, "prove", "--out", "out", TestMedia.jpeg(dir, "t2.jpg", 32).toString());
        assertThat(next.exitCode()).as(next.describe()).isZero();
        assertThat(next.stdout()).doesNotContain(notice);

        // A passphrase other than the agent's: the command runs alone and fails as documented.
        ProcessResult wrong = launch(script, Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE", "wrong"),
                "prove", "--out", "wrong", TestMedia.jpeg(dir, "t3.jpg", 33).toString());
        assertThat(wrong.exitCode()).as(wrong.describe()).isEqualTo(67);
        assertThat(dir.resolve("wrong")).doesNotExist();

        ProcessResult stop = launch(script, Map.of("PROOFMODE_HOME", home.toString()), "lock");
        assertThat(stop.exitCode()).as(stop.describe()).isZero();
        assertThat(socket).doesNotExist();
        // Not on a terminal: an agent is started again, silently.
        ProcessResult piped = launch(script, env, "prove", "--out", "out", TestMedia.jpeg(dir, "t4.jpg", 34).toString());
        assertThat(piped.stderr()).doesNotContain(notice);
        until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(socket) && System.nanoTime() < until) {
            Thread.sleep(100);
        }
        assertThat(launch(script, Map.of("PROOFMODE_HOME", home.toString()), "lock").exitCode()).isZero();
    }

    /** The launcher on a pseudo-terminal (util-linux script(1)); its stdout and stderr both come back as stdout. */
    private ProcessResult onTerminal(Path script, Map<String, String> env, String... args) {
        StringBuilder command = new StringBuilder("bash '" + script + "'");
        for (String a : args) {
            command.append(" '").append(a).append("'");
        }
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("PROOFMODE_NATIVE_CACHE", dir.resolve("native").toString());
        e.put("PROOFMODE_AGENT_IDLE", "2m");
        return ExternalTool.run(List.of("script", "-qec", command.toString(), "/dev/null"), e, java.time.Duration.ofSeconds(180), dir);
    }

    /** Seconds since boot, from {@code /proc/uptime}. */
    private static double uptimeSeconds() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** When a process started, in seconds since boot ({@code /proc/PID/stat} field 22, clock ticks of 1/100 s). */
    private static double startedSeconds(ProcessHandle p) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[19]) / 100.0;
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    /** Live processes whose command line names {@code path}. */
    private static List<ProcessHandle> processesNaming(Path path) {
        String s = path.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> p.info().commandLine().map(c -> c.contains(s)).orElse(false))
                .toList();
    }
}
