// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.proofmode.cli.print.Terminal;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the documentation the packages install, from the commands' own help: one AsciiDoc man page per
 * command and subcommand (picocli's man page generator; {@code asciidoctor -b manpage} turns them into
 * man pages), and the bash completion script (picocli's AutoComplete, which zsh also loads through
 * {@code bashcompinit}). Run by {@code packaging/build.sh}, with picocli-codegen on the class path; the
 * command line itself never loads this class.
 */
final class Docs {
    private Docs() {}

    /**
     * Writes {@code man/*.adoc} and {@code completion/proofmode} into the folder given.
     *
     * @param args the output folder
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Docs OUTPUT_DIR");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Path man = Files.createDirectories(out.resolve("man"));
        Path completion = Files.createDirectories(out.resolve("completion"));
        CommandLine cl = commandLine();
        int rc = ManPageGenerator.generateManPage(man.toFile(), null, new boolean[0], true, cl.getCommandSpec());
        if (rc != 0) {
            throw new IOException("man page generator failed: " + rc);
        }
        // The help topic is hidden from the command list, so the generator leaves it out: written here.
        CommandLine sharing = cl.getSubcommands().get("sharing");
        try (PrintWriter pw = new PrintWriter(Files.newBufferedWriter(man.resolve("proofmode-sharing.adoc"), StandardCharsets.UTF_8))) {
            ManPageGenerator.writeSingleManPage(pw, sharing.getCommandSpec());
        }
        StringWriter text = new StringWriter();
        sharing.usage(new PrintWriter(text), CommandLine.Help.Ansi.OFF);
        Files.writeString(out.resolve("sharing.txt"), text.toString(), StandardCharsets.UTF_8);
        String script = AutoComplete.bash("proofmode", cl);
        Files.writeString(completion.resolve("proofmode"), script, StandardCharsets.UTF_8);
        System.err.println("wrote " + man + File.separator + "*.adoc and " + completion.resolve("proofmode"));
    }

    /** The whole command tree, every subcommand added (the command line adds only the one it runs). */
    static CommandLine commandLine() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        CommandLine cl = new CommandLine(new Main(new CliContext(sink, sink, Map.of(), Terminal.system())));
        Main.SUBCOMMANDS.forEach(cl::addSubcommand);
        return cl;
    }
}
