// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.util.AtomicFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
        subcommands = {KeysCreateCommand.class, KeysCommand.Show.class, KeysCommand.Export.class,
            KeysImportCommand.class, KeysProtectCommand.class, KeysRenameCommand.class, KeysRotateCommand.class, KeysUseCommand.class,
            KeysEncryptStoreCommand.class, KeysExportIdentityCommand.class, KeysImportIdentityCommand.class})
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

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the device key: fingerprint, type, creation time.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Override
        public Integer call() {
            KeyPrinter.print(parent.ctx(), parent.keys());
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
}
