// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.opentest4j.AssertionFailedError;

/**
 * Finds external programs ({@code gpg}, {@code sqv}, {@code openssl}...) and runs them.
 *
 * <p>Interop tests must never skip silently: {@link #require} fails the test when a program is
 * missing, naming the package that provides it. The CI script ({@code .ci/run}) installs them.
 */
public final class ExternalTool {
    /** Debian packages that provide programs whose package name differs from the program's. */
    private static final Map<String, String> PACKAGES = Map.ofEntries(
            Map.entry("gpg", "gnupg"),
            Map.entry("age-keygen", "age"),
            Map.entry("gpgconf", "gnupg"),
            Map.entry("exiftool", "libimage-exiftool-perl"),
            Map.entry("ffprobe", "ffmpeg"),
            Map.entry("gpsfake", "gpsd-clients"),
            Map.entry("ots", "python3-opentimestamps"),
            Map.entry("node", "nodejs"),
            Map.entry("aws", "awscli"),
            Map.entry("dbus-daemon", "dbus"),
            Map.entry("systemd-detect-virt", "systemd"),
            Map.entry("softhsm2-util", "softhsm2"),
            Map.entry("pkcs11-tool", "opensc"),
            Map.entry("script", "bsdutils"));

    /** Environment variables of the test runner that never reach a child, so a developer's setup cannot leak in. */
    private static final List<String> SCRUBBED = List.of("PROOFMODE_HOME", "PROOFMODE_PASSPHRASE",
            "PROOFMODE_NEW_PASSPHRASE", "PROOFMODE_PIN", "SOFTHSM2_CONF", "GNUPGHOME", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    private ExternalTool() {}

    /**
     * Looks a program up on {@code PATH}.
     *
     * @param name the program's name, such as {@code gpg}
     * @return its path, if an executable of that name is on {@code PATH}
     */
    public static Optional<Path> find(String name) {
        Objects.requireNonNull(name, "name");
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Returns the path of a program the test needs, or fails the test.
     *
     * @param name the program's name
     * @return its path on {@code PATH}
     * @throws AssertionFailedError if it is not installed
     */
    public static Path require(String name) {
        return find(name).orElseGet(() -> fail(name + " is not on PATH, and this interop test needs it; install it: apt-get install "
                + PACKAGES.getOrDefault(name, name) + "; .ci/run does"));
    }

    /**
     * Runs a command to its end, with no input, and captures what it prints.
     *
     * <p>The child inherits this process's environment, minus ProofMode's and GnuPG's own variables and
     * the JVM option variables, plus {@code env}.
     *
     * @param command the program and its arguments
     * @param env variables to set for the child
     * @param timeout how long it may run
     * @return its exit code and output
     * @throws AssertionFailedError if it cannot start or runs longer than {@code timeout}
     *     (it is then killed, with its children)
     */
    public static ProcessResult run(List<String> command, Map<String, String> env, Duration timeout) {
        return run(command, env, timeout, null);
    }

    /**
     * Runs a command as {@link #run(List, Map, Duration)} does, in the given working folder.
     *
     * @param workingDir the child's working folder; {@code null} for this process's
     */
    public static ProcessResult run(List<String> command, Map<String, String> env, Duration timeout, Path workingDir) {
        List<String> cmd = List.copyOf(command);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("proofmode-tool", ".out");
            err = Files.createTempFile("proofmode-tool", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            if (workingDir != null) {
                pb.directory(workingDir.toFile());
            }
            SCRUBBED.forEach(pb.environment()::remove);
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                return fail("timed out after " + timeout.toSeconds() + " s: "
                        + new ProcessResult(cmd, -1, read(out), read(err)).describe());
            }
            return new ProcessResult(cmd, p.exitValue(), read(out), read(err));
        } catch (IOException e) {
            return fail("cannot run `" + String.join(" ", cmd) + "`: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while running `" + String.join(" ", cmd) + "`", e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover temp file does not change any test's outcome.
        }
    }
}
