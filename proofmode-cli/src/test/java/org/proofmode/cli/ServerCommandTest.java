// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home);
    }

    @Test
    void tokenCreate_printsTheTokenOnce_andKeepsOnlyItsHash() throws Exception {
        Cli.Result r = cli.run("server", "token", "create", "desk-anna");

        assertThat(r.exit()).as(r.err()).isZero();
        String token = r.out().strip();
        assertThat(token).matches("pm_[A-Za-z0-9_-]{43}");
        assertThat(r.err()).contains("desk-anna").contains("shown only now");
        byte[] db = Files.readAllBytes(home.resolve("server/evidence.db"));
        assertThat(new String(db, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(token).contains("desk-anna");
    }

    @Test
    void tokenRevoke_marksTheTokenRevoked_inTheList() {
        cli.run("server", "token", "create", "leaver");
        String id = cli.run("server", "token", "list").out().strip().split("\\s+")[0];

        Cli.Result revoke = cli.run("server", "token", "revoke", id);

        assertThat(revoke.exit()).isZero();
        assertThat(cli.run("server", "token", "list").out()).contains(id + "  leaver").contains("revoked ");
        Cli.Result again = cli.run("server", "token", "revoke", id);
        assertThat(again.exit()).isEqualTo(61);
        assertThat(again.err()).contains("no live token with id " + id);
    }

    @Test
    void serve_exitsWithDocumentedCodes_badArguments() {
        assertThat(cli.run("serve", "--port", "70000").exit()).isEqualTo(37);
        Cli.Result missing = cli.run("serve", "--port", "0", "--trust", tmp.resolve("nope.asc").toString());
        assertThat(missing.exit()).isEqualTo(61);
        assertThat(missing.err()).contains("nope.asc: no such key file");
        Cli.Result db = cli.run("serve", "--port", "0", "--db", "jdbc:mysql://db/x");
        assertThat(db.exit()).isEqualTo(37);
        assertThat(db.err()).contains("unsupported database URL");
        assertThat(cli.run("server", "token", "create", " ").exit()).isEqualTo(37);
        Cli.Result days = cli.run("serve", "--port", "0", "--report-days", "0");
        assertThat(days.exit()).isEqualTo(37);
        assertThat(days.err()).contains("--report-days");
    }

    @Test
    void help_teachesServeAndTokens() {
        Cli.Result serve = cli.run("serve", "--help");
        assertThat(serve.exit()).isZero();
        assertThat(serve.out()).contains("--bind", "--db", "PROOFMODE_DB_URL", "Exit codes:", "token create");
        assertThat(cli.run("server", "token", "--help").out().replaceAll("\\s+", " ")).contains("Authorization: Bearer TOKEN");
    }
}
