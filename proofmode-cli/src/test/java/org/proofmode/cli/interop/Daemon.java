// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts {@code proofmode} from the shaded jar as a long-running process with its output in a log file. */
final class Daemon {
    /** Every process started here; those still alive when the test JVM ends (a failed test) are killed. */
    private static final List<Process> STARTED = new java.util.concurrent.CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.forEach(p -> p.destroyForcibly()), "kill-test-daemons"));
    }

    private Daemon() {}

    /** The command line {@code java -jar proofmode.jar ARGS}, after {@code prefix} (e.g. setpriv). */
    static List<String> command(List<String> prefix, String... args) {
        return command(prefix, ProofModeJar.QUICK_START, args);
    }

    /** The command line {@code java JVM_OPTIONS -jar proofmode.jar ARGS}, after {@code prefix}. */
    static List<String> command(List<String> prefix, List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", ProofModeJar.jar().toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts {@code proofmode ARGS} on {@code home} with the test passphrase, stdout and stderr to {@code log}. */
    static Process start(Path home, Path log, List<String> prefix, String... args) throws IOException {
        return start(home, log, prefix, Map.of(), args);
    }

    /** As {@link #start(Path, Path, List, String...)}, with more environment variables (a token's PIN and configuration). */
    static Process start(Path home, Path log, List<String> prefix, Map<String, String> env, String... args) throws IOException {
        return startJvm(home, log, prefix, ProofModeJar.QUICK_START, env, args);
    }

    /** As {@link #start(Path, Path, List, Map, String...)}, in a JVM started with these options (a heap limit). */
    static Process startJvm(Path home, Path log, List<String> prefix, List<String> jvmOptions, Map<String, String> env, String... args)
            throws IOException {
        ProcessBuilder b = new ProcessBuilder(command(prefix, jvmOptions, args)).redirectErrorStream(true).redirectOutput(log.toFile());
        b.environment().put("PROOFMODE_HOME", home.toString());
        b.environment().put("PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE);
        b.environment().putAll(env);
        Process p = b.start();
        STARTED.add(p);
        return p;
    }

    /** Waits up to 90 s for the log to contain {@code text}; fails the test with the log otherwise. */
    static void await(Path log, String text) throws Exception {
        await(null, log, text);
    }

    /** As {@link #await(Path, String)}, failing at once if {@code process} (when not null) ends first. */
    static void await(Process process, Path log, String text) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            boolean ended = process != null && !process.isAlive();
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (ended) {
                throw new AssertionError("the process ended (exit " + process.exitValue() + ") before '" + text + "' was in the log:\n"
                        + (Files.exists(log) ? Files.readString(log) : "(none)"));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + text + "' in the log:\n" + (Files.exists(log) ? Files.readString(log) : "(none)"));
    }
}
