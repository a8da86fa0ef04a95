// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.print.Terminal;
import org.proofmode.util.Home;

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

    @Test
    void wipe_erasesExactlyTheEntriesMarkedProofs_proofs() throws Exception {
        Set<Home> present = fillHome();
        Cli.Result r = cli.run("wipe", "--proofs", "--yes");
        assertThat(r.exit()).as(r.err()).isZero();
        assertErasedExactly(present, Home.erasedBy(Home.Wipe.PROOFS));
        assertThat(home.resolve(Home.WATCH_DB.path() + "-wal")).doesNotExist();
    }

    @Test
    void wipe_erasesExactlyTheEntriesMarkedKeys_keys() throws Exception {
        Set<Home> present = fillHome();
        Cli.Result r = cli.run("wipe", "--keys", "--yes");
        assertThat(r.exit()).as(r.err()).isZero();
        assertErasedExactly(present, Home.erasedBy(Home.Wipe.KEYS));
    }

    /**
     * Puts a file at every entry of the home's layout that the proved home does not have yet, except the
     * few whose content the home reads when it opens (a token reference, an encrypted store's keys: other
     * tests wipe real ones), plus the watcher's write-ahead log; returns the entries present.
     */
    private Set<Home> fillHome() throws Exception {
        Set<Home> parsed = EnumSet.of(Home.TOKEN_REFERENCE, Home.STORE_RECIPIENT, Home.STORE_IDENTITY, Home.WATCH_KEY);
        Set<Home> present = EnumSet.noneOf(Home.class);
        for (Home e : Home.values()) {
            Path p = e.in(home);
            if (!Files.exists(p) && !parsed.contains(e)) {
                Path file = e.isFolder() ? p.resolve("x") : p;
                Files.createDirectories(file.getParent());
                Files.writeString(file, "x");
            }
            if (Files.exists(p)) {
                present.add(e);
            }
        }
        Files.writeString(home.resolve(Home.WATCH_DB.path() + "-wal"), "x");
        assertThat(present).hasSizeGreaterThan(Home.values().length - parsed.size() - 1);
        return present;
    }

    private void assertErasedExactly(Set<Home> present, List<Home> marked) {
        for (Home e : present) {
            assertThat(Files.exists(e.in(home))).as("%s (%s) after the wipe", e, e.path()).isEqualTo(!marked.contains(e));
        }
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

    @Test
    void status_listsWhatTheHomeHoldsByKind_andWhatWipeErases() throws Exception {
        Cli.Result text = cli.run("status");
        assertThat(text.exit()).as(text.err()).isZero();
        long present = Home.presentIn(home).size();
        assertThat(present).isGreaterThan(3);
        assertThat(text.out()).containsPattern("(?m)^home: +" + java.util.regex.Pattern.quote(home.toString()) + ": " + present
                + " of its " + Home.values().length + " files and folders \\([^)]*\\bsecret\\b");
        com.fasterxml.jackson.databind.JsonNode before = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli.run("status", "--json").out());
        assertThat(before.path("home").findValuesAsText("path")).contains("keys/secret.asc", "proofs/");
        assertThat(before.path("home")).anySatisfy(e -> {
            assertThat(e.path("path").asText()).isEqualTo("keys/secret.asc");
            assertThat(e.path("kind").asText()).isEqualTo("secret");
            assertThat(e.path("erasedBy").asText()).isEqualTo("--keys");
        });
        assertThat(cli.run("wipe", "--keys", "--yes").exit()).isZero();
        com.fasterxml.jackson.databind.JsonNode after = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli.run("status", "--json").out());
        assertThat(after.path("home").findValuesAsText("erasedBy")).isNotEmpty().doesNotContain("--keys");
        assertThat(after.path("home").findValuesAsText("path")).contains("proofs/");
    }
}
