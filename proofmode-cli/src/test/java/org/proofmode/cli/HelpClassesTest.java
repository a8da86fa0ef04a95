// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HelpClassesTest {
    @TempDir
    Path tmp;

    @Test
    void printEvery_runsEveryCommandsAndSubcommandsHelp_touchingNoHome() {
        Path home = tmp.resolve("home");
        List<List<String>> run = HelpClasses.printEvery(Map.of("PROOFMODE_HOME", home.toString()));

        assertThat(run).contains(List.of("prove", "--help"), List.of("serve", "--help"), List.of("keys", "create", "--help"),
                List.of("log", "keep", "--help"), List.of("help", "sharing")).doesNotHaveDuplicates();
        // Every command and topic the list of commands names (all but `help` itself), no `help` subcommand of a command.
        assertThat(run.stream().filter(a -> a.size() == 2)).hasSize(Main.SUBCOMMANDS.size() - 1);
        assertThat(run).noneMatch(a -> a.subList(1, a.size()).contains("help"));
        // Each is a help that prints and succeeds, and none of them made the home.
        for (List<String> args : run) {
            Cli.Result r = new Cli(home).run(args.toArray(String[]::new));
            assertThat(r.exit()).as(String.join(" ", args)).isZero();
            if (args.get(0).equals("help")) {
                assertThat(r.out()).as(String.join(" ", args)).contains("proofmode help " + args.get(1));
            } else {
                assertThat(r.out()).as(String.join(" ", args)).contains("Usage: proofmode " + String.join(" ", args.subList(0, args.size() - 1)));
            }
        }
        assertThat(home).doesNotExist();
    }
}
