// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.proofmode.cli.agent.AgentClient;

/**
 * The entry point the launcher uses while an agent runs: hands the command to the agent having loaded
 * only the few classes that takes ({@link AgentClient}); the rest of the program (picocli, the commands)
 * is loaded only if the command runs here after all. {@link Main} is the entry point otherwise.
 */
public final class ClientMain {
    private ClientMain() {}

    /** Runs the command line in the agent, or here, and exits with its code. */
    public static void main(String[] args) {
        Map<String, String> env = System.getenv();
        Path cwd = Path.of("").toAbsolutePath();
        OptionalInt byAgent = AgentClient.run(args, env, cwd, CliContext.home(env, cwd), System.out, System.err,
                System.console() != null);
        if (byAgent.isPresent()) {
            System.exit(byAgent.getAsInt());
        }
        EarlyRead.start(args, cwd);
        Main.runHere(args);
    }
}
