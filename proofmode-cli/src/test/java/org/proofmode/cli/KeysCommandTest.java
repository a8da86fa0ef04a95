// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.print.Terminal;

class KeysCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "first passphrase");
    }

    @Test
    void show_exits61_beforeAnyKey() {
        Cli.Result r = cli.run("keys", "show");
        assertThat(r.exit()).isEqualTo(61);
        assertThat(r.err()).contains("no device key");
    }

    @Test
    void create_showsEd25519Key_byDefault() {
        Cli.Result r = cli.run("keys", "create");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).containsPattern("fingerprint: [0-9A-F]{40}").contains("type:        ed25519");
        assertThat(cli.run("keys", "create").exit()).isEqualTo(59);
    }

    @Test
    void importHelp_teachesExamplesRefusalsAndExitCodes() {
        Cli.Result r = cli.run("keys", "import", "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("RSA keys under 2048 bits", "SHA-1 self-signatures only", "Examples:",
                "proofmode keys import --key-passphrase-file", "Exit codes:", "13  unsupported");
    }

    @Test
    void export_printsArmoredPublicKeyOnly() {
        cli.run("keys", "create");
        Cli.Result r = cli.run("keys", "export");
        assertThat(r.out()).startsWith("-----BEGIN PGP PUBLIC KEY BLOCK-----").doesNotContain("PRIVATE");
    }

    @Test
    void encryptedStore_identityExportedSealed_readsTheStoreOnASecondMachine_andAnotherIdentityIsRefused() throws Exception {
        cli.run("keys", "create");
        Cli.Result encrypted = cli.run("keys", "encrypt-store");
        assertThat(encrypted.exit()).as(encrypted.err()).isZero();
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 31);
        assertThat(cli.run("prove", media.toString()).exit()).isZero();
        Cli.Result stamp = cli.run("timestamp", "--tsa", "http://127.0.0.1:1/tsr", media.toString());
        assertThat(stamp.exit()).as(stamp.err()).isZero();
        assertThat(stamp.out()).contains("queued");
        try (Stream<Path> queued = Files.list(home.resolve("timestamp-queue"))) {
            assertThat(queued.map(p -> p.getFileName().toString())).singleElement().asString().matches("[0-9a-f]{32}\\.age");
        }
        Path sealed = tmp.resolve("store-identity.age");
        assertThat(cli.run("keys", "export-identity", "-o", sealed.toString()).exit()).isZero();
        assertThat(Files.readString(sealed, StandardCharsets.ISO_8859_1)).startsWith("age-encryption.org/v1\n-> scrypt ")
                .doesNotContain("AGE-SECRET-KEY");
        Path firstPassphrase = Files.writeString(tmp.resolve("first.txt"), "first passphrase\n");

        Cli second = new Cli(tmp.resolve("second")).env("PROOFMODE_PASSPHRASE", "second passphrase");
        second.run("keys", "create");
        Cli.Result imported = second.run("keys", "import-identity", "--identity-passphrase-file", firstPassphrase.toString(), sealed.toString());
        assertThat(imported.exit()).as(imported.err()).isZero();
        assertThat(imported.out()).isEqualTo(encrypted.out());
        try (Stream<Path> sets = Files.list(home.resolve("proofs"))) {
            for (Path set : (Iterable<Path>) sets.filter(Files::isDirectory)::iterator) {
                Path to = Files.createDirectories(tmp.resolve("second").resolve("proofs").resolve(set.getFileName()));
                try (Stream<Path> objects = Files.list(set)) {
                    for (Path o : (Iterable<Path>) objects::iterator) {
                        Files.copy(o, to.resolve(o.getFileName()));
                    }
                }
            }
        }
        Cli.Result verified = second.env("PROOFMODE_PASSPHRASE", "second passphrase").run("verify", media.toString());
        assertThat(verified.exit()).as(verified.err()).isZero();

        Cli third = new Cli(tmp.resolve("third")).env("PROOFMODE_PASSPHRASE", "third passphrase");
        third.run("keys", "create");
        third.run("keys", "encrypt-store");
        Cli.Result refused = third.run("keys", "import-identity", "--identity-passphrase-file", firstPassphrase.toString(), sealed.toString());
        assertThat(refused.exit()).isEqualTo(59);
        assertThat(refused.err()).contains("this store has another identity");
        Cli.Result missing = third.run("keys", "import-identity", "--identity-passphrase-file", tmp.resolve("none.txt").toString(), sealed.toString());
        assertThat(missing.exit()).isEqualTo(61);
    }

    @Test
    void create_encryptStore_makesTheHomeEncrypted_butNotWithAGeneratedPassphrase() throws Exception {
        Cli noPass = new Cli(tmp.resolve("nopass"));
        Cli.Result refused = noPass.run("keys", "create", "--encrypt-store");
        assertThat(refused.exit()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(refused.err()).contains("--encrypt-store needs a passphrase you choose");
        assertThat(tmp.resolve("nopass/keys/secret.asc")).doesNotExist();

        Cli.Result created = cli.run("keys", "create", "--encrypt-store");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("recipient:   age1");
        assertThat(home.resolve("proofs/.encrypted")).exists();
        Path media = ProveCommandTest.jpeg(tmp, "e.jpg", 100, 33);
        assertThat(cli.run("prove", media.toString()).exit()).isZero();
        Cli.Result verified = cli.run("verify", media.toString());
        assertThat(verified.exit()).as(verified.err()).isZero();
        Cli.Result locked = new Cli(home).run("verify", media.toString());
        assertThat(locked.exit()).isEqualTo(ExitCodes.KEY_LOCKED);
        // verify has no --passphrase-file: the message names what does work for it
        assertThat(locked.err()).contains("encrypted and locked", "PROOFMODE_PASSPHRASE", "proofmode agent").doesNotContain("--passphrase-file");
    }

    @Test
    void protect_changesPassphrase() throws Exception {
        cli.run("keys", "create");
        Path newPass = Files.writeString(tmp.resolve("new.txt"), "second passphrase\n");
        Cli.Result r = cli.run("keys", "protect", "--new-passphrase-file", newPass.toString());
        assertThat(r.exit()).isZero();
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 31);
        assertThat(cli.run("prove", media.toString()).exit()).isEqualTo(67);
        assertThat(cli.env("PROOFMODE_PASSPHRASE", "second passphrase").run("prove", media.toString()).exit()).isZero();
    }

    @Test
    void proveAndProtect_clearEveryTypedPassphrase_afterUse() throws Exception {
        cli.run("keys", "create");
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 32);
        List<char[]> typed = new ArrayList<>();
        Deque<String> answers = new ArrayDeque<>(List.of("first passphrase", "first passphrase", "second passphrase", "second passphrase"));
        Cli prompted = new Cli(home).terminal(typing(prompt -> answers.removeFirst(), new ArrayList<>(), typed));

        assertThat(prompted.run("prove", media.toString()).exit()).isZero();
        assertThat(prompted.run("keys", "protect").exit()).isZero();

        assertThat(answers).isEmpty();
        assertThat(typed).hasSize(4).allSatisfy(chars -> assertThat(chars).containsOnly('\0'));
    }

    @Test
    void encryptedStore_asksThePassphraseOncePerCommand_forTheStoreAndTheSignature() throws Exception {
        assertThat(cli.run("keys", "create", "--encrypt-store").exit()).isZero();
        Path media = RedactCommandTest.photo(tmp, "n.jpg", "jpeg", 34);
        assertThat(cli.run("prove", media.toString()).exit()).isZero();
        List<String> prompts = new ArrayList<>();
        List<char[]> typed = new ArrayList<>();
        Cli prompted = new Cli(home).terminal(typing(prompt -> "first passphrase", prompts, typed));

        Cli.Result notarized = prompted.run("notarize", media.toString());
        assertThat(notarized.exit()).as(notarized.err()).isZero();
        assertThat(prompts).as("the store's identity and the device key: one passphrase, asked once").hasSize(1);
        Cli.Result redacted = prompted.run("redact", media.toString(), "-o", tmp.resolve("redacted.jpg").toString(), "--pixelate", "0,0,10,10");
        assertThat(redacted.exit()).as(redacted.err()).isZero();
        assertThat(prompts).as("asked again by the next command").hasSize(2);
        assertThat(typed).allSatisfy(chars -> assertThat(chars).containsOnly('\0'));
    }

    /** A terminal a person types answers into: each prompt and each answer's characters are kept for the test. */
    private static Terminal typing(java.util.function.Function<String, String> answer, List<String> prompts, List<char[]> typed) {
        return new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public Optional<char[]> readSecret(String prompt) {
                prompts.add(prompt);
                char[] a = answer.apply(prompt).toCharArray();
                typed.add(a);
                return Optional.of(a);
            }
        };
    }

    @Test
    void protect_removesGeneratedPassphraseFile() throws Exception {
        Cli noPass = new Cli(home);
        noPass.run("keys", "create");
        assertThat(home.resolve("keys/passphrase")).exists();
        Cli.Result r = noPass.env("PROOFMODE_NEW_PASSPHRASE", "chosen passphrase").run("keys", "protect");
        assertThat(r.exit()).isZero();
        assertThat(home.resolve("keys/passphrase")).doesNotExist();
    }

    @Test
    void protect_exits67_withoutNewPassphraseOffTerminal() {
        cli.run("keys", "create");
        assertThat(cli.run("keys", "protect").exit()).isEqualTo(67);
    }

    @Test
    void rotate_keepsOldPublicKey_soOldProofsStayTrusted() throws Exception {
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 32);
        cli.run("prove", media.toString());
        String before = cli.run("keys", "show").out();
        Cli.Result r = cli.run("keys", "rotate");
        assertThat(r.exit()).isZero();
        assertThat(cli.run("keys", "show").out()).isNotEqualTo(before);
        try (var s = Files.list(home.resolve("keys/public"))) {
            assertThat(s.count()).isEqualTo(2);
        }
        Cli.Result v = cli.run("verify", media.toString());
        assertThat(v.exit()).isZero();
        assertThat(v.out()).contains(": TRUSTED");
    }

    @Test
    void import_exits61_forMissingFile() {
        assertThat(cli.run("keys", "import", tmp.resolve("none.asc").toString()).exit()).isEqualTo(61);
    }

    @Test
    void import_exits41_forGarbage() throws Exception {
        Path junk = Files.writeString(tmp.resolve("junk.asc"), "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nAAAA\n-----END PGP PRIVATE KEY BLOCK-----\n");
        Cli.Result r = cli.run("keys", "import", junk.toString());
        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void import_takesAnotherHomesKey_andReprotectsIt() throws Exception {
        Cli other = new Cli(tmp.resolve("other")).env("PROOFMODE_PASSPHRASE", "other passphrase");
        other.run("keys", "create");
        Path secret = tmp.resolve("other/keys/secret.asc");
        String otherFpr = other.run("keys", "show").out();
        Path keyPass = Files.writeString(tmp.resolve("kp.txt"), "other passphrase");
        Cli.Result r = cli.run("keys", "import", "--key-passphrase-file", keyPass.toString(), secret.toString());
        assertThat(r.exit()).isZero();
        assertThat(cli.run("keys", "show").out()).isEqualTo(otherFpr);
        Path media = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 33);
        assertThat(cli.env("PROOFMODE_PASSPHRASE", "other passphrase").run("prove", media.toString()).exit()).isZero();
    }

    @Test
    void import_exits67_forWrongKeyPassphrase() throws Exception {
        Cli other = new Cli(tmp.resolve("other")).env("PROOFMODE_PASSPHRASE", "other passphrase");
        other.run("keys", "create");
        Cli.Result r = cli.run("keys", "import", tmp.resolve("other/keys/secret.asc").toString());
        assertThat(r.exit()).isEqualTo(67);
    }
}
