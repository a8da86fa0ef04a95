// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What watch and status do without a running watcher; the running watcher is tested from the jar (WatchDaemonIT). */
class WatchCommandTest {
    @TempDir
    Path tmp;

    @Test
    void watch_exits61_folderMissing() {
        Cli.Result r = new Cli(tmp.resolve("home")).run("watch", tmp.resolve("nowhere").toString());
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("no such folder");
    }

    @Test
    void watch_exits37_badRescan() throws Exception {
        Path d = Files.createDirectories(tmp.resolve("in"));
        Cli.Result r = new Cli(tmp.resolve("home")).run("watch", "--rescan", "0", d.toString());
        assertThat(r.exit()).isEqualTo(37);
    }

    @Test
    void watch_exits83_requireTimestamp() throws Exception {
        Path d = Files.createDirectories(tmp.resolve("in"));
        Cli.Result r = new Cli(tmp.resolve("home")).run("watch", "--require-timestamp", d.toString());
        assertThat(r.exit()).isEqualTo(83);
    }

    @Test
    void watch_exits19_noFolder() {
        Cli.Result r = new Cli(tmp.resolve("home")).run("watch");
        assertThat(r.exit()).isEqualTo(19);
        assertThat(r.err()).contains("PROOFMODE_WATCH_FOLDERS");
        assertThat(new Cli(tmp.resolve("home")).env("PROOFMODE_WATCH_FOLDERS", " : ").run("watch").exit()).isEqualTo(19);
    }

    @Test
    void watch_takesItsFolders_fromPROOFMODE_WATCH_FOLDERS() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Cli.Result missing = new Cli(tmp.resolve("home")).env("PROOFMODE_WATCH_FOLDERS", in + ":" + tmp.resolve("card")).run("watch");
        assertThat(missing.exit()).isEqualTo(61);
        assertThat(missing.err()).contains(tmp.resolve("card") + ": no such folder");
        // Both exist: the watcher starts on them (and stops at once here: its key cannot be unlocked).
        Files.createDirectories(tmp.resolve("card"));
        Path home = tmp.resolve("home");
        assertThat(new Cli(home).env("PROOFMODE_PASSPHRASE", "right one").run("keys", "create").exit()).isZero();
        Cli.Result started = new Cli(home).env("PROOFMODE_PASSPHRASE", "wrong one")
                .env("PROOFMODE_WATCH_FOLDERS", in + ":" + tmp.resolve("card")).run("watch");
        assertThat(started.exit()).isEqualTo(67);
    }

    @Test
    void watch_exits67AndStops_wrongPassphrase() throws Exception {
        Path home = tmp.resolve("home");
        assertThat(new Cli(home).env("PROOFMODE_PASSPHRASE", "right one").run("keys", "create").exit()).isZero();
        Path d = Files.createDirectories(tmp.resolve("in"));
        ProveCommandTest.jpeg(d, "a.jpg", 100, 3);
        Cli.Result r = new Cli(home).env("PROOFMODE_PASSPHRASE", "wrong one").run("watch", d.toString());
        assertThat(r.exit()).isEqualTo(67);
        assertThat(r.err()).contains("wrong passphrase").contains(" stopped ");
        assertThat(home.resolve("proofs")).doesNotExist();
    }

    @Test
    void status_saysNeverStarted_freshHome() {
        Cli.Result r = new Cli(tmp.resolve("home")).run("status");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("not running (never started on this home)").contains("queue:       0 file(s)");
        assertThat(tmp.resolve("home").resolve("watch.db")).doesNotExist();
    }

    @Test
    void status_printsJson_freshHome() {
        Cli.Result r = new Cli(tmp.resolve("home")).run("status", "--json");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"running\" : false").contains("\"queueLength\" : 0").contains("\"lastProofs\" : [ ]");
    }
}
