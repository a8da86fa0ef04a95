// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.print.Terminal;

class WipeCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "a passphrase");
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 7);
        assertThat(cli.run("prove", media.toString()).exit()).isZero();
    }

    @Test
    void wipe_exits19_nothingNamed() {
        Cli.Result r = cli.run("wipe", "--yes");
        assertThat(r.exit()).isEqualTo(19);
        assertThat(r.err()).contains("--proofs, --keys or --all");
    }

    @Test
    void wipe_refusesAndKeepsEverything_noTerminalAndNoYes() {
        Cli.Result r = cli.run("wipe", "--all");
        assertThat(r.exit()).isEqualTo(19);
        assertThat(r.err()).contains("without confirmation").contains("--yes");
        assertThat(home.resolve("keys/secret.asc")).exists();
        assertThat(home.resolve("proofs")).isNotEmptyDirectory();
    }

    @Test
    void wipe_overwritesKeyFilesBeforeDeleting_keys() throws Exception {
        Path secret = home.resolve("keys/secret.asc");
        // a second name for the same file shows what was left in it
        Path link = Files.createLink(tmp.resolve("secret-link"), secret);
        Cli.Result r = cli.run("wipe", "--keys", "--yes");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(home.resolve("keys")).doesNotExist();
        assertThat(Files.readString(link, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("PGP");
        assertThat(home.resolve("proofs")).isNotEmptyDirectory();
    }

    @Test
    void wipe_removesProofsAndKeepsKey_proofs() {
        Cli.Result r = cli.run("wipe", "--proofs", "--yes");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("removed 1 proof set(s)");
        assertThat(home.resolve("proofs")).doesNotExist();
        assertThat(home.resolve("keys/secret.asc")).exists();
    }

    @Test
    void wipe_removesWholeHome_confirmedOnTerminal() {
        Cli.Result r = cli.terminal(answering("wipe")).run("wipe", "--all");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(home).doesNotExist();
    }

    @Test
    void wipe_keepsEverything_notConfirmedOnTerminal() {
        Cli.Result r = cli.terminal(answering("no")).run("wipe", "--all");
        assertThat(r.exit()).isEqualTo(19);
        assertThat(r.err()).contains("nothing erased");
        assertThat(home.resolve("keys/secret.asc")).exists();
    }

    private static Terminal answering(String answer) {
        return new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public Optional<char[]> readSecret(String prompt) {
                return Optional.empty();
            }

            @Override
            public Optional<String> readLine(String prompt) {
                return Optional.of(answer);
            }
        };
    }
}
