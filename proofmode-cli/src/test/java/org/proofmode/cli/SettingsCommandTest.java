// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsCommandTest {
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
    void settings_listsEveryKeyWithTheAppDefaults_andWritesTheFile() {
        Cli.Result r = cli.run("settings");

        assertThat(r.exit()).isZero();
        assertThat(r.out().lines()).containsExactly("location = false", "network = false", "sensors = true", "radios = false",
                "device-ids = false",
                "image-hashes = true", "frame-hashes = true", "j3m = false", "gpsd.host = 127.0.0.1", "gpsd.port = 2947",
                "publish.server = ", "publish.proxy = ", "publish.mode = with-media", "context.file-path = name");
        assertThat(home.resolve("settings")).exists();
    }

    @Test
    void set_changesTheValue_thatGetThenPrints() throws Exception {
        assertThat(cli.run("settings", "set", "location", "on").out()).isEqualTo("location = true" + System.lineSeparator());

        Cli.Result r = cli.run("settings", "get", "location");

        assertThat(r.exit()).isZero();
        assertThat(r.out().strip()).isEqualTo("true");
        assertThat(Files.readString(home.resolve("settings"))).contains("\nlocation = true\n").contains("# Record the location");
    }

    @Test
    void set_exits37_forAnUnknownKeyOrABadValue() {
        Cli.Result unknown = cli.run("settings", "set", "gps", "true");
        Cli.Result bad = cli.run("settings", "set", "network", "sometimes");

        assertThat(unknown.exit()).isEqualTo(37);
        assertThat(unknown.err()).contains("unknown setting 'gps'").contains("location, network, sensors, radios, device-ids");
        assertThat(bad.exit()).isEqualTo(37);
        assertThat(bad.err()).contains("true or false");
        assertThat(cli.run("settings", "get", "nope").exit()).isEqualTo(37);
    }

    @Test
    void help_teachesKeysExamplesAndExitCodes_forGetAndSet() {
        Cli.Result set = cli.run("settings", "set", "--help");
        Cli.Result get = cli.run("settings", "get", "--help");

        assertThat(set.exit()).isZero();
        assertThat(set.out()).contains("gpsd.port", "default 2947", "Examples:", "proofmode settings set location true",
                "Exit codes:", "37  bad option");
        assertThat(get.exit()).isZero();
        assertThat(get.out()).contains("device-ids", "proofmode settings get location", "Exit codes:");
        assertThat(home.resolve("settings")).doesNotExist();
    }

    @Test
    void prove_exits41NamingTheLine_whenTheSettingsFileIsBroken() throws Exception {
        Files.createDirectories(home);
        Files.writeString(home.resolve("settings"), "network = true\nlocation = perhaps\n");
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 1);

        Cli.Result r = cli.env("PROOFMODE_PASSPHRASE", "pw").run("prove", f.toString());

        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.err()).contains("settings line 2").contains("perhaps");
    }

    @Test
    void set_checksPublishSettings_urlProxyAndMode() {
        assertThat(cli.run("settings", "set", "publish.server", "https://desk.example.org/").out())
                .isEqualTo("publish.server = https://desk.example.org" + System.lineSeparator());
        assertThat(cli.run("settings", "set", "publish.proxy", "socks5h://127.0.0.1:9050").exit()).isZero();
        assertThat(cli.run("settings", "set", "publish.mode", "proof-only").exit()).isZero();

        for (String[] bad : new String[][] {{"publish.server", "ftp://x"}, {"publish.server", "https://user:pw@x"},
                {"publish.proxy", "socks5://127.0.0.1:9050"}, {"publish.proxy", "socks5h://127.0.0.1"}, {"publish.mode", "everything"}}) {
            Cli.Result r = cli.run("settings", "set", bad[0], bad[1]);
            assertThat(r.exit()).as(String.join(" ", bad)).isEqualTo(ExitCodes.BAD_OPTION);
        }
        assertThat(cli.run("settings", "get", "publish.proxy").out().strip()).isEqualTo("socks5h://127.0.0.1:9050");
    }

    @Test
    void storeEncrypt_true_sealsTheSetsThere_asKeysEncryptStore_andFalseIsRefused() throws Exception {
        Cli pass = new Cli(home).env("PROOFMODE_PASSPHRASE", "settings passphrase");
        assertThat(pass.run("keys", "create").exit()).isZero();
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 41);
        Cli.Result proved = pass.run("prove", media.toString());
        assertThat(proved.exit()).as(proved.err()).isZero();
        String sha = proved.out().split(" ")[0];
        assertThat(home.resolve("proofs").resolve(sha)).isDirectory();
        assertThat(cli.run("settings", "get", "store.encrypt").out().strip()).isEqualTo("false");

        Cli.Result locked = cli.run("settings", "set", "store.encrypt", "true");
        assertThat(locked.exit()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(home.resolve("proofs").resolve(".encrypted")).doesNotExist();

        Cli.Result on = pass.run("settings", "set", "store.encrypt", "yes");
        assertThat(on.exit()).as(on.err()).isZero();
        assertThat(on.out()).contains("store.encrypt = true");
        assertThat(on.err()).contains("the proof store is encrypted; 1 proof set(s) sealed");
        assertThat(home.resolve("proofs").resolve(".encrypted")).exists();
        assertThat(home.resolve("proofs").resolve(sha)).doesNotExist();
        assertThat(cli.run("settings", "get", "store.encrypt").out().strip()).isEqualTo("true");
        Cli.Result verified = pass.run("verify", media.toString());
        assertThat(verified.exit()).as(verified.out() + verified.err()).isZero();

        Cli.Result again = pass.run("settings", "set", "store.encrypt", "true");
        assertThat(again.exit()).isZero();
        assertThat(again.out().strip()).isEqualTo("store.encrypt = true");
        Cli.Result off = pass.run("settings", "set", "store.encrypt", "false");
        assertThat(off.exit()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(off.err()).contains("store.encrypt cannot be turned off");
        assertThat(pass.run("settings", "set", "store.encrypt", "maybe").exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(home.resolve("proofs").resolve(".encrypted")).exists();
    }
}
