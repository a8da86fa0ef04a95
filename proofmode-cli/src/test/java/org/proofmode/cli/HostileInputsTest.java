// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.server.ServerConfig;

/**
 * Inputs a careless user or a hostile script gives: devices that never end, FIFOs, empty folders. Each is
 * refused (or reported) at once with one true line and a documented exit code; none is read until memory is
 * gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileInputsTest {
    @TempDir
    Path tmp;

    private Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    @Test
    void keysImport_exits13_devZero() {
        Cli.Result r = cli.run("keys", "import", "/dev/zero");

        assertThat(r.exit()).as(r.err()).isEqualTo(13);
        assertThat(r.err().strip()).isEqualTo("proofmode: /dev/zero: not a regular file (a device, FIFO or socket); give a key file");
    }

    @Test
    void c2paSign_exits13_devZero() {
        Cli.Result r = cli.run("c2pa", "sign", "/dev/zero", "-o", tmp.resolve("x.jpg").toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(13);
        assertThat(r.err()).contains("/dev/zero: not a regular file");
        assertThat(tmp.resolve("x.jpg")).doesNotExist();
    }

    @Test
    void verifyTrust_exits13_devZero() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("bundle"));
        Cli.Result r = cli.run("verify", "--trust", "/dev/zero", folder.toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(13);
        assertThat(r.err()).contains("/dev/zero: not a regular file");
    }

    @Test
    void passphraseFile_exits13_devZero() {
        Cli.Result r = cli.run("keys", "create", "--passphrase-file", "/dev/zero");

        assertThat(r.exit()).as(r.err()).isEqualTo(13);
        assertThat(r.err()).contains("/dev/zero: not a regular file");
    }

    @Test
    void prove_exits13_devZeroAndFifo() throws Exception {
        Path fifo = tmp.resolve("pipe");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor()).isZero();

        Cli.Result dev = cli.run("prove", "/dev/zero");
        Cli.Result pipe = cli.run("prove", fifo.toString());

        assertThat(dev.exit()).as(dev.err()).isEqualTo(13);
        assertThat(dev.err()).contains("/dev/zero: not a regular file");
        assertThat(pipe.exit()).as(pipe.err()).isEqualTo(13);
        assertThat(pipe.err()).contains("pipe: not a regular file");
    }

    @Test
    @Timeout(60)
    void verify_exits13_devZeroFifoAndOriginalFifo() throws Exception {
        Path fifo = tmp.resolve("bundle.zip");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor()).isZero();
        Path folder = Files.createDirectories(tmp.resolve("proofs"));

        Cli.Result dev = cli.run("verify", "/dev/zero");
        Cli.Result pipe = cli.run("verify", fifo.toString());
        Cli.Result original = cli.run("verify", "--original", fifo.toString(), folder.toString());

        assertThat(dev.exit()).as(dev.err()).isEqualTo(13);
        assertThat(dev.err().strip()).isEqualTo("proofmode: /dev/zero: not a regular file (a device, FIFO or socket); "
                + "give a bundle (.zip), a proof folder or a proved media file");
        assertThat(pipe.exit()).as(pipe.err()).isEqualTo(13);
        assertThat(pipe.err()).contains("bundle.zip: not a regular file");
        assertThat(original.exit()).as(original.err()).isEqualTo(13);
        assertThat(original.err()).contains("bundle.zip: not a regular file");
    }

    @Test
    void keysImport_exits13_fifo() throws Exception {
        Path fifo = tmp.resolve("key.asc");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor()).isZero();

        Cli.Result r = cli.run("keys", "import", fifo.toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(13);
        assertThat(r.err()).contains("key.asc: not a regular file");
    }

    @Test
    void prove_saysSoOnStderr_emptyFolder() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));

        Cli.Result r = cli.run("prove", empty.toString());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo("proofmode: " + empty + ": no files to prove in this folder");
    }

    @Test
    void databaseName_namesTheEngineInUse_sqliteUrlGiven() {
        assertThat(ServerConfig.databaseName("jdbc:sqlite:/srv/pm/evidence.db")).isEqualTo("SQLite /srv/pm/evidence.db");
        assertThat(ServerConfig.databaseName("jdbc:postgresql://db/evidence?user=pm&password=secret")).isEqualTo("PostgreSQL");
    }
}
