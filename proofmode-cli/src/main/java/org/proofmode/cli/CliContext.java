// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.age.StoreIdentity;
import org.proofmode.cli.print.Terminal;
import org.proofmode.keys.SigningKey;

/**
 * What a command may touch of the outside world: its output streams, its environment and its terminal.
 * Tests inject their own.
 *
 * @param out results
 * @param err diagnostics
 * @param env environment variables
 * @param terminal the terminal, or {@link Terminal#NONE}
 * @param cwd the folder relative paths on the command line are relative to, absolute
 * @param heldKey the device key, already unlocked by the agent that runs this command, if any
 * @param heldStoreIdentity the encrypted store's identity, already unlocked by that agent, if any
 */
public record CliContext(PrintWriter out, PrintWriter err, Map<String, String> env, Terminal terminal, Path cwd,
        Optional<SigningKey> heldKey, Optional<StoreIdentity> heldStoreIdentity) {
    /** Validates the fields. */
    public CliContext {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        env = Map.copyOf(env);
        Objects.requireNonNull(terminal, "terminal");
        if (!cwd.isAbsolute()) {
            throw new IllegalArgumentException("not an absolute folder: " + cwd);
        }
        Objects.requireNonNull(heldKey, "heldKey");
        Objects.requireNonNull(heldStoreIdentity, "heldStoreIdentity");
    }

    /** A command run by this process itself, in its working folder, with no key held for it. */
    public CliContext(PrintWriter out, PrintWriter err, Map<String, String> env, Terminal terminal) {
        this(out, err, env, terminal, Path.of("").toAbsolutePath(), Optional.empty(), Optional.empty());
    }

    /** The same context with another terminal. */
    public CliContext withTerminal(Terminal t) {
        return new CliContext(out, err, env, t, cwd, heldKey, heldStoreIdentity);
    }

    /** A path given on the command line, made absolute against {@link #cwd()}. */
    public Path resolve(Path p) {
        return cwd.resolve(p);
    }

    /** {@code PROOFMODE_HOME}, or {@code .proofmode} in the user's home ({@code HOME}, as the shell knows it). */
    public Path home() {
        return home(env, cwd);
    }

    /** {@link #home()} of a command with this environment and working folder. */
    static Path home(Map<String, String> env, Path cwd) {
        // Plain code, no lambdas: a command handed to the agent runs this first, and little else.
        String home = nonBlank(env, "PROOFMODE_HOME");
        if (home != null) {
            return cwd.resolve(home);
        }
        String user = nonBlank(env, "HOME");
        return (user != null ? Path.of(user) : Path.of(System.getProperty("user.home"))).resolve(".proofmode");
    }

    private static String nonBlank(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
