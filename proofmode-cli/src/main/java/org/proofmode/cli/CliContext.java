package org.proofmode.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a command may touch of the outside world: its output streams, its environment and its terminal.
 * Tests inject their own.
 *
 * @param out results
 * @param err diagnostics
 * @param env environment variables
 * @param terminal the terminal, or {@link Terminal#NONE}
 */
public record CliContext(PrintWriter out, PrintWriter err, Map<String, String> env, Terminal terminal) {
    /** Validates the fields. */
    public CliContext {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        env = Map.copyOf(env);
        Objects.requireNonNull(terminal, "terminal");
    }

    /** {@code PROOFMODE_HOME}, or {@code .proofmode} in the user's home ({@code HOME}, as the shell knows it). */
    public Path home() {
        return nonBlank("PROOFMODE_HOME").map(Path::of)
                .orElseGet(() -> nonBlank("HOME").map(Path::of).orElseGet(() -> Path.of(System.getProperty("user.home")))
                        .resolve(".proofmode"));
    }

    private Optional<String> nonBlank(String name) {
        return Optional.ofNullable(env.get(name)).filter(s -> !s.isBlank());
    }
}
