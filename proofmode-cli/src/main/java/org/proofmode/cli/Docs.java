// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.cli.print.Terminal;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;
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
        manSections(cl);
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

    /**
     * Gives every command's man page the EXAMPLES and EXIT STATUS sections that its {@code --help} ends with:
     * the help's footer ("Examples:" lines, then the "Exit codes:" table) becomes picocli's footer under the
     * heading Examples and its exit-code list (the generator writes no footer without a heading). A command
 * whose help has no exit-code table gets the table of every exit code.
     */
    static void manSections(CommandLine cl) {
        UsageMessageSpec u = cl.getCommandSpec().usageMessage();
        List<String> examples = new ArrayList<>();
        Map<String, String> exits = new LinkedHashMap<>();
        String section = "";
        String lastCode = null;
        // A command whose help has no exit-code table exits with the codes of them all.
        List<String> footer = new ArrayList<>(List.of(u.footer()));
        if (footer.stream().noneMatch(f -> f.contains("Exit codes:"))) {
            footer.add(ExitCodes.HELP_TABLE);
        }
        for (String part : footer) {
            for (String line : part.replace("%n", "\n").split("\n", -1)) {
                String t = line.strip();
                if (t.equals("Examples:") || t.equals("Exit codes:")) {
                    section = t;
                    continue;
                }
                Matcher m = EXIT_LINE.matcher(line);
                if (section.equals("Exit codes:") && m.matches()) {
                    lastCode = m.group(1);
                    exits.put(lastCode, m.group(2).strip());
                } else if (section.equals("Exit codes:") && lastCode != null && !t.isEmpty()) {
                    exits.put(lastCode, exits.get(lastCode) + " " + t);
                } else if (!t.isEmpty()) {
                    examples.add(line);
                }
            }
        }
        if (!examples.isEmpty()) {
            u.footerHeading("Examples%n");
            u.footer(examples.toArray(String[]::new));
        }
        if (!exits.isEmpty()) {
            u.exitCodeListHeading("Exit status%n");
            u.exitCodeList(exits);
        }
        cl.getSubcommands().values().forEach(Docs::manSections);
    }

    private static final Pattern EXIT_LINE = Pattern.compile("\\s*([0-9]{1,3})\\s+(.*)");

    /** The whole command tree, every subcommand added (the command line adds only the one it runs). */
    static CommandLine commandLine() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        CommandLine cl = new CommandLine(new Main(new CliContext(sink, sink, Map.of(), Terminal.system())));
        Main.SUBCOMMANDS.forEach(cl::addSubcommand);
        return cl;
    }
}
