// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.proofmode.cli.agent.AgentClient;
import org.proofmode.context.ContextSources;

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
        if (takesContext(args)) {
            ContextSources.warmSystemBus();
        }
        Main.runHere(args);
    }

    /**
     * Whether the command line is one that takes a capture context from system services ({@code prove} or
     * {@code watch} without {@code --no-context}): a guess from the raw arguments, before they are parsed;
     * a wrong one costs a connection to the system bus that closes by itself.
     */
    static boolean takesContext(String[] args) {
        List<String> a = List.of(args);
        Optional<String> command = a.stream().filter(x -> !x.startsWith("-")).findFirst();
        return command.isPresent() && (command.get().equals("prove") || command.get().equals("watch")) && !a.contains("--no-context")
                && !a.contains("--help") && !a.contains("-h");
    }
}
