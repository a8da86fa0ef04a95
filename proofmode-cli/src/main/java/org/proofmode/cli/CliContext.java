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

    /** {@code PROOFMODE_HOME}, or {@code ~/.proofmode}. */
    public Path home() {
        return Optional.ofNullable(env.get("PROOFMODE_HOME")).filter(s -> !s.isBlank()).map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("user.home"), ".proofmode"));
    }
}
