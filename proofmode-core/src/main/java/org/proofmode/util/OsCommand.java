// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs a tool of the operating system ({@code timedatectl}, {@code nmcli}, {@code iw}) that metadata
 * sources ask about the device, with a time limit and a cap on what it prints.
 */
public final class OsCommand {
    /** Most bytes of output kept. */
    static final int MAX_OUTPUT = 256 * 1024;

    private OsCommand() {}

    /** Finds a program on {@code PATH}. */
    public static Optional<Path> find(String name) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Runs a command with no input and returns its standard output if it exits with 0 in time.
     *
     * @return the output (UTF-8, at most {@value #MAX_OUTPUT} bytes), or empty if the program is missing,
     *     fails, or runs too long (it is then killed)
     */
    public static Optional<String> output(List<String> command, Duration timeout) {
        return output(command, timeout, 0);
    }

    /**
     * Runs a command as {@link #output(List, Duration)} does, for a tool whose other exit codes are answers
     * too ({@code systemd-detect-virt} prints {@code none} and exits 1).
     *
     * @param exits the exit codes whose output is returned
     */
    public static Optional<String> output(List<String> command, Duration timeout, int... exits) {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            return Optional.empty();
        }
        try (InputStream in = p.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long deadline = System.nanoTime() + timeout.toNanos();
            byte[] buf = new byte[8192];
            while (System.nanoTime() < deadline) {
                int avail = in.available();
                if (avail > 0) {
                    int n = in.read(buf, 0, Math.min(buf.length, avail));
                    if (out.size() < MAX_OUTPUT) {
                        out.write(buf, 0, Math.min(n, MAX_OUTPUT - out.size()));
                    }
                } else if (!p.isAlive()) {
                    int n;
                    while ((n = in.read(buf)) > 0 && out.size() < MAX_OUTPUT) {
                        out.write(buf, 0, Math.min(n, MAX_OUTPUT - out.size()));
                    }
                    break;
                } else {
                    Thread.sleep(2);
                }
            }
            if (!p.waitFor(Math.max(0, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS)
                    || java.util.Arrays.stream(exits).noneMatch(x -> x == p.exitValue())) {
                return Optional.empty();
            }
            return Optional.of(out.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }
}
