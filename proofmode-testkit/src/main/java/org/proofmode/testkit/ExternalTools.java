package org.proofmode.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Finds and runs the external tools that interoperability tests compare against. A missing tool fails
 * the test with the Debian package to install; it never skips it silently.
 */
public final class ExternalTools {
    /** What a tool printed and returned. */
    public record Run(int exit, String out, String err) {}

    private ExternalTools() {}

    /**
     * Finds a command on the PATH.
     *
     * @param command e.g. {@code openssl}
     * @param debianPackage the package that provides it, for the failure message
     * @throws AssertionError if it is not installed
     */
    public static Path require(String command, String debianPackage) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir).resolve(command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new AssertionError("'" + command + "' is not installed; this interoperability test needs it "
                + "(Debian: apt-get install " + debianPackage + ", or run .ci/run)");
    }

    /**
     * Finds a Python 3 that can import OpenTimestamps (Debian package python3-opentimestamps): the
     * system's {@code /usr/bin/python3}, where Debian installs the package, or else the first
     * {@code python3} on the PATH.
     *
     * @return the interpreter to run
     * @throws AssertionError if none can import it
     */
    public static String requirePythonOpenTimestamps() {
        String last = "";
        for (String python : List.of("/usr/bin/python3", "python3")) {
            if (python.startsWith("/") && !Files.isExecutable(Path.of(python))) {
                continue;
            }
            try {
                Run r = run(List.of(python, "-c", "import opentimestamps.core.timestamp"), null);
                if (r.exit() == 0) {
                    return python;
                }
                last = r.err();
            } catch (UncheckedIOException e) {
                last = e.getMessage();
            }
        }
        throw new AssertionError("python3 cannot import opentimestamps; this interoperability test needs it "
                + "(Debian: apt-get install python3-opentimestamps, or run .ci/run): " + last);
    }

    /**
     * Runs a command and waits for it (at most a minute).
     *
     * @param command the command and its arguments
     * @param dir the working folder, or null for the current one
     */
    public static Run run(List<String> command, Path dir) {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command));
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return new Run(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + command, e);
        }
    }

    /** Runs a command that must succeed; returns its standard output. */
    public static String check(List<String> command, Path dir) {
        Run r = run(command, dir);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + r.exit() + ":\n" + r.err() + r.out());
        }
        return r.out();
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                in.transferTo(b);
                return b.toString(StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
