// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.proof.ProofTimes;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode keys}: the device key. */
@Command(name = "keys", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Manage the device key that signs proofs.",
            "",
            "The secret key is always stored encrypted (AES-256, iterated and salted S2K) in "
                + "PROOFMODE_HOME/keys, readable by you only; the public keys of earlier keys are kept there "
                + "so that old proofs still verify.", ""},
        footer = {"", "Examples:", "  proofmode keys show",
            "  proofmode keys export > pubkey.asc            (give it to whoever must trust your proofs)",
            "  proofmode keys protect                        (choose your own passphrase)",
            "  proofmode keys import --key-passphrase-file old.txt secret.asc", "", ExitCodes.HELP_TABLE},
        subcommands = {KeysCommand.Create.class, KeysCommand.Show.class, KeysCommand.Export.class,
            KeysCommand.Import.class, KeysCommand.Protect.class, KeysCommand.Rotate.class})
final class KeysCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(root.ctx.out());
        return ExitCodes.OK;
    }

    CliContext ctx() {
        return root.ctx;
    }

    DeviceKeys keys() {
        return root.proofMode().keys();
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create the device key now (prove does it on first use).")
    static final class Create implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Mixin
        KeyOptions keyOptions;

        @Override
        public Integer call() {
            DeviceKeyAccess.create(parent.ctx(), parent.keys(), keyOptions.keyType,
                    Passphrases.given(parent.ctx(), keyOptions.passphraseFile));
            print(parent.ctx(), parent.keys().info());
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the device key: fingerprint, type, creation time.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Override
        public Integer call() {
            print(parent.ctx(), parent.keys().info());
            return ExitCodes.OK;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Print the armored public key (what recipients need, as pubkey.asc).")
    static final class Export implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of stdout.")
        Path output;

        @Option(names = "--force", description = "Replace FILE if it exists.")
        boolean force;

        @Override
        public Integer call() throws IOException {
            byte[] armored = OpenPgpKeys.armor(parent.keys().certificate());
            if (output == null) {
                parent.ctx().out().print(new String(armored, StandardCharsets.US_ASCII));
                return ExitCodes.OK;
            }
            try {
                AtomicFiles.write(output, armored, force, false);
            } catch (FileAlreadyExistsException e) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force)");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true, description = {"Use an existing OpenPGP secret key as the device key.", "",
        "The key is re-encrypted with our settings. RSA keys under 2048 bits and keys without a valid "
            + "signing key (expired, revoked, SHA-1 self-signatures only) are refused (exit 13).", ""},
        footer = {"", "Examples:", "  gpg --export-secret-keys --armor alice@example.org > secret.asc",
            "  proofmode keys import --key-passphrase-file old.txt secret.asc",
            "  proofmode keys import --force secret.asc       (retire the current device key)", "", ExitCodes.HELP_TABLE})
    static final class Import implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = "--key-passphrase-file", paramLabel = "FILE", description = "The passphrase the key is protected with now.")
        Path keyPassphraseFile;

        @Option(names = "--passphrase-file", paramLabel = "FILE",
                description = "Protect it here with this passphrase (default: keep the key's own, or generate one).")
        Path passphraseFile;

        @Option(names = "--force", description = "Retire the existing device key (its public key is kept).")
        boolean force;

        @Parameters(paramLabel = "FILE", description = "The secret key, armored or binary.")
        Path file;

        @Override
        public Integer call() throws IOException {
            byte[] bytes = InputFiles.read(file, InputFiles.KEY_BYTES, "key file");
            Optional<Passphrase> keyPass = Passphrases.given(parent.ctx(), keyPassphraseFile);
            Optional<Passphrase> newPass = passphraseFile != null ? Optional.of(Passphrase.read(passphraseFile)) : Optional.empty();
            try {
                DeviceKeys.Created c = parent.keys().importKey(bytes, file.toString(), keyPass, newPass, force);
                DeviceKeyAccess.announce(parent.ctx(), c, "imported");
                print(parent.ctx(), c.info());
            } finally {
                keyPass.ifPresent(Passphrase::clear);
                newPass.ifPresent(Passphrase::clear);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "protect", mixinStandardHelpOptions = true, description = {"Change the passphrase of the device key.", "",
        "The current passphrase comes from the usual sources; the new one from --new-passphrase-file, "
            + "PROOFMODE_NEW_PASSPHRASE, or a prompt. A generated passphrase file is then wiped.", ""})
    static final class Protect implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = "--passphrase-file", paramLabel = "FILE", description = "The current passphrase.")
        Path passphraseFile;

        @Option(names = "--new-passphrase-file", paramLabel = "FILE", description = "The new passphrase.")
        Path newPassphraseFile;

        @Override
        public Integer call() {
            DeviceKeys keys = parent.keys();
            keys.info();
            try (Passphrase old = Passphrases.unlocking(parent.ctx(), passphraseFile, keys);
                 Passphrase neu = Passphrases.choosing(parent.ctx(), newPassphraseFile, "the device key")) {
                keys.changePassphrase(old, neu);
            }
            parent.ctx().err().println("proofmode: the device key now uses your passphrase; keep it safe, it cannot be recovered");
            return ExitCodes.OK;
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true, description = {"Replace the device key by a new one.", "",
        "The old public key is kept so that its proofs still verify; its secret key is wiped.", ""})
    static final class Rotate implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = "--key-type", paramLabel = "TYPE", defaultValue = "ed25519", description = "${COMPLETION-CANDIDATES}.")
        KeyType keyType;

        @Option(names = "--passphrase-file", paramLabel = "FILE", description = "Protect the new key with this passphrase.")
        Path passphraseFile;

        @Override
        public Integer call() {
            Optional<Passphrase> p = Passphrases.given(parent.ctx(), passphraseFile);
            try {
                DeviceKeys.Created c = parent.keys().rotate(keyType, p);
                DeviceKeyAccess.announce(parent.ctx(), c, "rotated to");
                print(parent.ctx(), c.info());
            } finally {
                p.ifPresent(Passphrase::clear);
            }
            return ExitCodes.OK;
        }
    }

    static void print(CliContext ctx, KeyInfo info) {
        ctx.out().println("fingerprint: " + info.fingerprint());
        ctx.out().println("type:        " + info.algorithm());
        ctx.out().println("created:     " + ProofTimes.format(info.created()));
        // A user ID comes from whoever made the key (keys import): escaped, one line.
        ctx.out().println("user id:     " + SafeText.escape(info.userId()));
    }
}
