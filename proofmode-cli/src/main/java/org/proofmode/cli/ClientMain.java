// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The entry point the launcher uses while an agent runs: hands the command to the agent having loaded
 * only the few classes that takes ({@link AgentClient}); the rest of the program (picocli, the commands)
 * is loaded only if the command runs here after all. {@link Main} is the entry point otherwise.
 */
public final class ClientMain {
    private ClientMain() {}

    /** Runs the command line in the agent, or here, and exits with its code. */
    public static void main(String[] args) {
        OptionalInt byAgent = AgentClient.run(args, System.getenv(), Path.of("").toAbsolutePath(), System.out, System.err,
                System.console() != null);
        if (byAgent.isPresent()) {
            System.exit(byAgent.getAsInt());
        }
        Main.runHere(args);
    }
}
