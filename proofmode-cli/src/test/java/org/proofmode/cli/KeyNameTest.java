// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Sqv;

/**
 * {@code keys create --name} and {@code keys rename}: the key's OpenPGP user ID, as real gpg reads it from
 * the exported key, and signatures made before and after a rename still verifying with gpg and sqv.
 */
class KeyNameTest {
    private static final String ALICE = "Alice Example, Example News";
    private static final String ALICE_NEW = "Alice Example, Other Desk";

    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    private Path exportKey(String name) throws Exception {
        Cli.Result r = cli.run("keys", "export");
        assertThat(r.exit()).as(r.err()).isZero();
        return Files.writeString(tmp.resolve(name), r.out());
    }

    /** The user IDs gpg shows for a key file: "uid" lines of --with-colons, field 2 the validity ('r' revoked). */
    private static String uids(Gpg gpg, Path key) {
        ProcessResult r = gpg.run("--with-colons", "--show-keys", key.toString());
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        StringBuilder out = new StringBuilder();
        r.stdout().lines().filter(l -> l.startsWith("uid:")).forEach(l -> {
            String[] f = l.split(":", -1);
            out.append(f[1]).append(' ').append(f[9]).append('\n');
        });
        return out.toString();
    }

    @Test
    void keysCreate_setsTheUserIdThatGpgShows_withName() throws Exception {
        Cli.Result r = cli.run("keys", "create", "--name", ALICE);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("user id:     " + ALICE);
        try (Gpg gpg = Gpg.create(tmp)) {
            assertThat(uids(gpg, exportKey("alice.asc"))).isEqualTo("- " + ALICE + "\n");
        }
        Path photo = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 5);
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        assertThat(cli.run("verify", photo.toString()).out()).containsPattern("signer: +[0-9A-F]{40} \\(ed25519, " + ALICE + "\\) trusted");
    }

    @Test
    void keysRename_makesTheNewNamePrimaryAndRevokesTheOld_signaturesBeforeAndAfterStillVerify() throws Exception {
        assertThat(cli.run("keys", "create", "--name", ALICE).exit()).isZero();
        String fingerprint = cli.run("keys", "show").out().lines().filter(l -> l.startsWith("fingerprint:")).findFirst().orElseThrow();
        Path before = ProveCommandTest.jpeg(tmp, "before.jpg", 3000, 6);
        assertThat(cli.run("prove", before.toString()).exit()).isZero();

        Cli.Result renamed = cli.run("keys", "rename", ALICE_NEW);
        Path after = ProveCommandTest.jpeg(tmp, "after.jpg", 3000, 7);
        assertThat(cli.run("prove", after.toString()).exit()).isZero();

        assertThat(renamed.exit()).as(renamed.err()).isZero();
        assertThat(renamed.out()).contains(fingerprint, "user id:     " + ALICE_NEW);
        Path key = exportKey("renamed.asc");
        try (Gpg gpg = Gpg.create(tmp)) {
            assertThat(uids(gpg, key)).contains("- " + ALICE_NEW + "\n", "r " + ALICE + "\n");
            gpg.importKey(key);
            for (Path media : new Path[] {before, after}) {
                String h = Digests.sha256(media);
                Path sig = home.resolve("proofs").resolve(h).resolve(h + ".asc");
                ProcessResult g = gpg.verify(sig, media);
                assertThat(g.exitCode()).as(g.describe()).isZero();
                assertThat(g.stderr()).contains("Good signature from \"" + ALICE_NEW + "\"");
                ProcessResult s = Sqv.verify(key, sig, media);
                assertThat(s.exitCode()).as(s.describe()).isZero();
                Cli.Result v = cli.run("verify", "--require-trusted", media.toString());
                assertThat(v.exit()).as(v.out()).isZero();
            }
        }
        assertThat(cli.run("verify", after.toString()).out()).contains("(ed25519, " + ALICE_NEW + ") trusted");
    }

    @Test
    void keysRename_exits37_forNameThatIsEmptyTooLongOrSpansLines() throws Exception {
        assertThat(cli.run("keys", "create").exit()).isZero();

        assertThat(cli.run("keys", "rename", " ").exit()).isEqualTo(ExitCodes.BAD_OPTION);
        Cli.Result twoLines = cli.run("keys", "rename", "Alice\nMallory");
        assertThat(twoLines.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(twoLines.err()).contains("1 to 256 characters on one line");
        assertThat(cli.run("keys", "create", "--name", "x".repeat(257)).exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(cli.run("keys", "show").out()).contains("user id:     ProofMode device key");
    }

    @Test
    void keysRotate_keepsTheName() throws Exception {
        assertThat(cli.run("keys", "create", "--name", ALICE).exit()).isZero();

        Cli.Result r = cli.run("keys", "rotate");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(cli.run("keys", "show").out()).contains("user id:     " + ALICE);
    }
}
