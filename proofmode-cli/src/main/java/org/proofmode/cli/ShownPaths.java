// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Paths from a command line: opened against the caller's working folder ({@link CliContext#cwd()}, which
 * differs from this process's own when the agent runs the command), and shown as the caller wrote them.
 * Code that reports on a file names it by the path it opened; {@link #show} turns those names back into
 * what was typed, so a command gives the same text whether it runs alone or in the agent.
 */
final class ShownPaths {
    private final CliContext ctx;
    /** Opened path to typed path, longest first so that no name is replaced inside a longer one. */
    private final Map<String, String> typed = new TreeMap<>(
            Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));

    ShownPaths(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The path to open for a path given on the command line; null stays null. */
    Path open(Path given) {
        if (given == null) {
            return null;
        }
        Path at = ctx.resolve(given);
        if (!at.toString().equals(given.toString())) {
            typed.put(at.toString(), given.toString());
        }
        return at;
    }

    /** {@code text} with every opened path written as it was given. */
    String show(String text) {
        String s = text;
        for (Map.Entry<String, String> e : typed.entrySet()) {
            s = s.replace(e.getKey(), e.getValue());
        }
        return s;
    }
}
