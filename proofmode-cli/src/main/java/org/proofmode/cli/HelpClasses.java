// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.proofmode.cli.print.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Every command's help, printed nowhere, so that one help run loads the classes of them all. Help of any
 * command maps one class-data archive (the launchers' {@code proofmode_cds}, {@code agent.sh}), made from the
 * classes the first help run after a build listed; without this, that list held only the help that run
 * printed, and every other command's help loaded its options, mixins and converters from the jar and
 * checked them again (57 classes for {@code prove --help} from the jar instead of the archive). The
 * launcher asks for it with {@code -Dproofmode.cds.list=help} on that listing run only.
 */
final class HelpClasses {
    /** The system property the launcher sets on the run that lists help's classes. */
    static final String PROPERTY = "proofmode.cds.list";

    private HelpClasses() {}

    /** Whether this JVM lists the classes of help's archive. */
    static boolean listing() {
        return "help".equals(System.getProperty(PROPERTY));
    }

    /**
     * Prints, into a writer that keeps nothing, {@code proofmode COMMAND --help} and {@code proofmode COMMAND
     * SUBCOMMAND --help} for every command ({@code proofmode help TOPIC} for a help topic), as those command
     * lines run.
     *
     * @return the command lines run, for the tests
     */
    static List<List<String>> printEvery(Map<String, String> env) {
        PrintWriter none = new PrintWriter(Writer.nullWriter());
        CliContext ctx = new CliContext(none, none, env, Terminal.system());
        List<List<String>> run = new ArrayList<>();
        for (Class<?> c : Main.SUBCOMMANDS) {
            if (c.equals(CommandLine.HelpCommand.class)) {
                continue;
            }
            String name = c.getAnnotation(Command.class).name();
            CommandLine command = Main.commandLine(new Main(ctx), new String[] {name, "--help"}).getSubcommands().get(name);
            // A help topic has no --help of its own: `proofmode help sharing` prints it.
            run.add(command.getCommandSpec().findOption("--help") == null ? List.of("help", name) : List.of(name, "--help"));
            // The map names each subcommand under its aliases too.
            for (CommandLine sub : new LinkedHashSet<>(command.getSubcommands().values())) {
                if (!sub.getCommandName().equals("help")) {
                    run.add(List.of(name, sub.getCommandName(), "--help"));
                }
            }
        }
        for (List<String> args : run) {
            Main.execute(args.toArray(String[]::new), ctx);
        }
        return run;
    }
}
