// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.proofmode.cli.agent.AgentClient;
import org.proofmode.context.ContextSources;
import org.proofmode.prove.HeadStart;

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
        startEarlyRead(args, cwd);
        if (takesContext(args)) {
            ContextSources.warmSystemBus();
        }
        Main.runHere(args);
    }

    /**
     * Starts reading the file a {@code prove} or {@code verify} command line names ({@link HeadStart#beginRead}:
     * only a large regular file), while the rest of the program is still being loaded.
     *
     * @param args the raw command line
     * @param cwd the folder relative names are in
     */
    static void startEarlyRead(String[] args, Path cwd) {
        Optional<String> named = fileReadFirst(args);
        if (named.isPresent()) {
            try {
                HeadStart.beginRead(cwd.resolve(named.get()));
            } catch (InvalidPathException e) {
                // not a path: the command says so itself
            }
        }
    }

    /**
     * The file a command line would read first and whole, from its raw arguments, before they are parsed:
     * the last argument, or for {@code verify} the one after {@code --media}. The command takes the read
     * only for a file it was going to read anyway, so a wrong guess costs only processor time.
     */
    static Optional<String> fileReadFirst(String[] args) {
        String command = null;
        for (String a : args) {
            if (!a.startsWith("-")) {
                command = a;
                break;
            }
        }
        if (!"prove".equals(command) && !"verify".equals(command) || args.length < 2) {
            return Optional.empty();
        }
        if (command.equals("verify")) {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--media") && i + 1 < args.length) {
                    return Optional.of(args[i + 1]);
                }
                if (args[i].startsWith("--media=")) {
                    return Optional.of(args[i].substring("--media=".length()));
                }
            }
        }
        String last = args[args.length - 1];
        return last.startsWith("-") || last.equals(command) ? Optional.empty() : Optional.of(last);
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
