// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.util.List;
import java.util.Objects;

/**
 * What a finished child process left behind: its exit code and everything it printed.
 *
 * @param command the command line that ran, program first
 * @param exitCode the exit code
 * @param stdout what it printed on standard output (UTF-8)
 * @param stderr what it printed on standard error (UTF-8)
 */
public record ProcessResult(List<String> command, int exitCode, String stdout, String stderr) {
    /** Validates the fields. */
    public ProcessResult {
        command = List.copyOf(command);
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
    }

    /** Tells whether the process exited with 0. */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /** Standard output followed by standard error, for assertions that do not care which stream. */
    public String output() {
        return stdout + stderr;
    }

    /**
     * A multi-line account of the run for assertion messages: the command, its exit code and both
     * streams.
     */
    public String describe() {
        return "`" + String.join(" ", command) + "` exited " + exitCode
                + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
    }
}
