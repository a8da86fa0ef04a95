// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.cli.print.Terminal;
import picocli.CommandLine;

class MainTest {
    @TempDir
    Path tmp;

    @Test
    void help_listsCommandsAndExitCodes() {
        Cli.Result r = new Cli(tmp).run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("prove", "verify", "export", "notarize", "keys", "Exit codes:", "67  key locked");
    }

    @Test
    void systemBusIsOpenedEarly_onlyForCommandsThatTakeAContext() {
        assertThat(ClientMain.takesContext(new String[] {"prove", "a.jpg"})).isTrue();
        assertThat(ClientMain.takesContext(new String[] {"--stacktrace", "watch", "dir"})).isTrue();
        assertThat(ClientMain.takesContext(new String[] {"prove", "--no-context", "a.jpg"})).isFalse();
        assertThat(ClientMain.takesContext(new String[] {"prove", "--help"})).isFalse();
        assertThat(ClientMain.takesContext(new String[] {"verify", "a.jpg"})).isFalse();
        assertThat(ClientMain.takesContext(new String[] {"keys", "create"})).isFalse();
        assertThat(ClientMain.takesContext(new String[] {})).isFalse();
    }

    @Test
    void subcommandHelp_exits0() {
        for (String c : new String[] {"prove", "verify", "export", "notarize", "timestamp", "keys", "inspect", "settings"}) {
            Cli.Result r = new Cli(tmp).run(c, "--help");
            assertThat(r.exit()).as(c).isZero();
            assertThat(r.out()).as(c).contains("Usage: proofmode " + c);
        }
    }

    @Test
    void help_listsEverySubcommand_helpCommandAndHelpOption() {
        for (String[] args : new String[][] {{"--help"}, {"help"}}) {
            Cli.Result r = new Cli(tmp).run(args);
            for (Class<?> c : Main.SUBCOMMANDS) {
                if (c.getAnnotation(picocli.CommandLine.Command.class).hidden()) {
                    continue;
                }
                String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
                assertThat(r.out() + r.err()).as(String.join(" ", args)).contains("  " + name);
            }
        }
    }

    @Test
    void help_sameAsTheWholeCommandTree_listedCommandsNotBuilt() {
        Cli.Result r = new Cli(tmp).run("--help");
        StringWriter whole = new StringWriter();
        Docs.commandLine().usage(new PrintWriter(whole));
        assertThat(r.out()).isEqualTo(whole.toString());
        assertThat(new Cli(tmp).run("help").out()).isEqualTo(whole.toString());

        PrintWriter sink = new PrintWriter(new StringWriter());
        Main main = new Main(new CliContext(sink, sink, Map.of(), Terminal.system()));
        CommandLine listing = Main.commandLine(main, new String[] {"--help"});
        assertThat(listing.getSubcommands().keySet()).containsAll(Docs.commandLine().getSubcommands().keySet());
        assertThat(listing.getSubcommands().get("prove").getCommandSpec().findOption("--out")).as("only listed").isNull();
        CommandLine topic = Main.commandLine(main, new String[] {"help", "prove"});
        assertThat(topic.getSubcommands().get("prove").getCommandSpec().findOption("--out")).as("help prove").isNotNull();
        assertThat(topic.getSubcommands().get("verify").getCommandSpec().findOption("--json")).isNull();
        assertThat(Main.commandLine(main, new String[] {"--stacktrace", "help", "keys"}).getSubcommands().get("keys")
                .getSubcommands()).containsKey("create");
    }

    @Test
    void invoked_findsSubcommand_afterInheritedOption() {
        assertThat(Main.invoked(new String[] {"--stacktrace", "prove", "x.jpg"})).contains(ProveCommand.class);
        assertThat(Main.invoked(new String[] {"keys", "show"})).contains(KeysCommand.class);
        assertThat(Main.invoked(new String[] {"help", "prove"})).isEmpty();
        assertThat(Main.invoked(new String[] {"--", "prove"})).isEmpty();
        assertThat(Main.invoked(new String[] {"provee"})).isEmpty();
    }

    @Test
    void helpCommand_showsSubcommandUsage() {
        Cli.Result r = new Cli(tmp).run("help", "verify");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: proofmode verify");
    }

    @Test
    void helpSharing_explainsThreeShareModes_whatEachRevealsAndWhen() {
        Cli.Result r = new Cli(tmp).run("help", "sharing");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("1. Notarize only:  proofmode notarize PHOTO",
                "2. Share proof only:  proofmode export --proof-only", "3. Share proof with media:  proofmode export --with-media");
        assertThat(r.out().split("Reveals:", -1)).hasSize(4);
        assertThat(r.out().split("Use it ", -1)).hasSize(4);
    }

    @Test
    void help_namesSharingTopic() {
        assertThat(new Cli(tmp).run("--help").out()).contains("proofmode help sharing");
    }

    @Test
    void execute_exits69_forUnknownSubcommand() {
        Cli.Result r = new Cli(tmp).run("provee", "x.jpg");
        assertThat(r.exit()).isEqualTo(69);
        assertThat(r.err()).contains("provee");
    }

    @Test
    void execute_suggestsCommand_inOneLine_forMistypedCommand() {
        Cli.Result r = new Cli(tmp).run("provee", "x.jpg");
        assertThat(r.exit()).isEqualTo(ExitCodes.UNKNOWN_SUBCOMMAND);
        assertThat(r.err().lines()).containsExactly(
                "proofmode: unknown command 'provee': did you mean 'prove'? ('proofmode --help' lists them)");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void execute_suggestsSubcommand_ofItsGroup() {
        Cli.Result r = new Cli(tmp).run("keys", "shwo");
        assertThat(r.exit()).isEqualTo(ExitCodes.UNKNOWN_SUBCOMMAND);
        assertThat(r.err().lines()).containsExactly(
                "proofmode: unknown command 'shwo': did you mean 'show'? ('proofmode keys --help' lists them)");
    }

    @Test
    void execute_suggestsOption_inOneLine_forMistypedOption() {
        Cli.Result r = new Cli(tmp).run("prove", "--note", "march", "x.jpg");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("proofmode: unknown option '--note' for 'proofmode prove': did you mean '--notes'");
    }

    @Test
    void execute_printsHelpToStderr_exits19_withoutCommand() {
        Cli.Result r = new Cli(tmp).run();
        assertThat(r.exit()).isEqualTo(ExitCodes.MISSING_ARGUMENT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("Usage: proofmode", "  prove", "no command given");
    }

    @Test
    void help_exits69_suggestingTopic_forUnknownTopic() {
        Cli.Result r = new Cli(tmp).run("help", "sharng");
        assertThat(r.exit()).isEqualTo(ExitCodes.UNKNOWN_SUBCOMMAND);
        assertThat(r.err().lines()).containsExactly(
                "proofmode: no command or help topic 'sharng': did you mean 'sharing'? ('proofmode help' lists them)");
    }

    @Test
    void help_listsTopics() {
        Cli.Result r = new Cli(tmp).run("help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).containsPattern("Help topics:\\R  proofmode help sharing +how to share a proof, and what each way reveals\\R");
    }

    @Test
    void execute_exits37_forUnknownOption() {
        assertThat(new Cli(tmp).run("verify", "--frobnicate", "x.zip").exit()).isEqualTo(37);
    }

    @Test
    void execute_exits19_forMissingArgument() {
        assertThat(new Cli(tmp).run("verify").exit()).isEqualTo(19);
        assertThat(new Cli(tmp).run("prove").exit()).isEqualTo(19);
    }

    @Test
    void version_printsVersion() {
        for (String option : new String[] {"--version", "-V"}) {
            Cli.Result r = new Cli(tmp).run(option);
            assertThat(r.exit()).as(option).isZero();
            assertThat(r.out()).as(option).startsWith("proofmode ");
        }
    }

    @Test
    void exitCodes_mapEveryFailure() {
        for (org.proofmode.failure.Failure f : org.proofmode.failure.Failure.values()) {
            assertThat(ExitCodes.of(f)).as(f.name()).isIn(1, 13, 37, 41, 47, 59, 61, 67, 83);
        }
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.INPUT_MISSING)).isEqualTo(61);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.BAD_DATA)).isEqualTo(41);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.KEY_LOCKED)).isEqualTo(67);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.OUTPUT_EXISTS)).isEqualTo(59);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.UNSUPPORTED)).isEqualTo(13);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.INCOMPATIBLE_OPTIONS)).isEqualTo(83);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.BAD_ARGUMENT)).isEqualTo(37);
        assertThat(ExitCodes.of(org.proofmode.failure.Failure.SERVICE_UNREACHABLE)).isEqualTo(47);
    }

    @Test
    void helpTable_listsEveryMappedExitCode() {
        String table = String.format(ExitCodes.HELP_TABLE);
        for (org.proofmode.failure.Failure f : org.proofmode.failure.Failure.values()) {
            int code = ExitCodes.of(f);
            assertThat(table).as(f.name()).containsPattern("(?m)^ +" + code + "  ");
        }
    }

    @Test
    void home_followsHomeVariable_whenProofmodeHomeUnset() {
        var ctx = new CliContext(new java.io.PrintWriter(new java.io.StringWriter()), new java.io.PrintWriter(new java.io.StringWriter()),
                java.util.Map.of("HOME", tmp.toString()), Terminal.NONE);
        assertThat(ctx.home()).isEqualTo(tmp.resolve(".proofmode"));
        var explicit = new CliContext(ctx.out(), ctx.err(), java.util.Map.of("HOME", "/x", "PROOFMODE_HOME", tmp.toString()), Terminal.NONE);
        assertThat(explicit.home()).isEqualTo(tmp);
    }

    @Test
    void progressBar_drawsOnTerminalOnly() {
        var text = new java.io.StringWriter();
        ProgressBar bar = new ProgressBar(new java.io.PrintWriter(text, true), true, 1000, 2);
        bar.bytes(500);
        bar.fileDone();
        bar.finish();
        assertThat(text.toString()).contains("[", "%", "files");
        var silent = new java.io.StringWriter();
        ProgressBar off = new ProgressBar(new java.io.PrintWriter(silent, true), false, 1000, 2);
        off.bytes(500);
        off.finish();
        assertThat(silent.toString()).isEmpty();
    }
}
