// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * Runs the shaded {@code proofmode.jar} in a child JVM, as users run it, against one ProofMode home.
 * The jar comes from the system property {@code proofmode.jar}, which failsafe sets after
 * {@code package} built it.
 */
final class ProofModeJar {
    /** The passphrase of device keys made by tests. */
    static final String PASSPHRASE = "correct horse battery staple";

    /**
     * The kernel's setting for transparent huge pages. Every command of an encrypted store unlocks its
     * identity with scrypt, which fills 256 MiB of fresh heap: faulting that in 4 KiB at a time, on a
     * virtual machine, cost about as much CPU as scrypt's own work; with 2 MiB pages a command's CPU time
     * fell by a third (about 0.8 s). Only where the kernel offers them ({@code madvise} or {@code always}) is
     * the option given: on a kernel without them the JVM would print a warning into the output the tests
     * read. (Declared before {@link #QUICK_START}, whose initialiser reads it.)
     */
    private static final Path HUGE_PAGES = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    /**
     * JVM options for short commands: the serial collector starts a little faster and changes nothing
     * the commands do. (C1-only compilation would start faster still, but makes RSA-4096 key generation
     * several times slower.) Where the kernel offers transparent huge pages, the heap is backed by them
     * ({@link #HUGE_PAGES}), which changes nothing the commands do either.
     */
    static final List<String> QUICK_START = hugePages()
            ? List.of("-XX:+UseSerialGC", "-XX:+UseTransparentHugePages")
            : List.of("-XX:+UseSerialGC");

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final Path home;
    private final Map<String, String> env;

    private ProofModeJar(Path home, Map<String, String> env) {
        this.home = home;
        this.env = Map.copyOf(env);
    }

    /** A runner on {@code home} with {@code PROOFMODE_PASSPHRASE} set to {@link #PASSPHRASE}. */
    static ProofModeJar at(Path home) {
        return new ProofModeJar(home, Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE", PASSPHRASE));
    }

    /** A runner on {@code home} without {@code PROOFMODE_PASSPHRASE}. */
    static ProofModeJar withoutPassphrase(Path home) {
        return new ProofModeJar(home, Map.of("PROOFMODE_HOME", home.toString()));
    }

    /** This runner with {@code PROOFMODE_PASSPHRASE} set to {@code passphrase}. */
    ProofModeJar withPassphrase(String passphrase) {
        return withEnv("PROOFMODE_PASSPHRASE", passphrase);
    }

    /** This runner with one more environment variable for the child (e.g. another {@code PATH}). */
    ProofModeJar withEnv(String name, String value) {
        Map<String, String> e = new HashMap<>(env);
        e.put(name, value);
        return new ProofModeJar(home, e);
    }

    /** The ProofMode home. */
    Path home() {
        return home;
    }

    /** The store folder of the proof of content {@code sha256}. */
    Path proofFolder(String sha256) {
        return home.resolve("proofs").resolve(sha256);
    }

    /** Runs {@code proofmode ARGS}. */
    ProcessResult run(String... args) {
        return runJvm(QUICK_START, TIMEOUT, args);
    }

    /** Runs {@code WRAPPER... java -jar proofmode.jar ARGS}: under a program that sets up its world, such as umockdev-run. */
    ProcessResult runWrapped(List<String> wrapper, String... args) {
        return runJvm(wrapper, QUICK_START, TIMEOUT, args);
    }

    /** Runs {@code java JVM_OPTIONS -jar proofmode.jar ARGS}. */
    ProcessResult runJvm(List<String> jvmOptions, Duration timeout, String... args) {
        return runJvm(List.of(), jvmOptions, timeout, args);
    }

    private ProcessResult runJvm(List<String> wrapper, List<String> jvmOptions, Duration timeout, String... args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jar().toString());
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, env, timeout);
    }

    /** Whether the kernel offers transparent huge pages to a program that asks for them ({@link #HUGE_PAGES}). */
    private static boolean hugePages() {
        try {
            String setting = Files.readString(HUGE_PAGES);
            return setting.contains("[madvise]") || setting.contains("[always]");
        } catch (IOException e) {
            return false;
        }
    }

    /** The shaded jar under test; fails the test if the build did not make it. */
    static Path jar() {
        String p = System.getProperty("proofmode.jar");
        if (p == null || p.isBlank()) {
            return fail("system property proofmode.jar is not set; run the integration tests with ./mvnw verify");
        }
        Path jar = Path.of(p);
        if (!Files.isRegularFile(jar)) {
            return fail("proofmode.jar not found at " + jar + "; run ./mvnw verify (package builds it)");
        }
        return jar;
    }
}
