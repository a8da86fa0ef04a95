// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.util.InputFiles;
import org.proofmode.watch.HomeEncryption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofmode keys import-identity}: use another machine's encrypted-store identity. */
@Command(name = "import-identity", mixinStandardHelpOptions = true, description = {"Use another machine's encrypted-store identity.", "",
    "For a second machine of the same desk: FILE is what 'keys export-identity' wrote there (sealed with that "
        + "machine's passphrase, asked for as the identity's passphrase, from --identity-passphrase-file or a prompt) "
        + "or an age-keygen identity in the clear. It is sealed here with this device key's passphrase and the store "
        + "becomes encrypted to it. A store encrypted to another identity is refused (exit 59).", ""},
    footer = {"", "Examples:", "  proofmode keys import-identity store-identity.age", "", ExitCodes.HELP_TABLE})
final class KeysImportIdentityCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--identity-passphrase-file", paramLabel = "FILE", description = "The passphrase FILE is sealed with.")
    Path identityPassphraseFile;

    @Mixin
    UnlockOptions unlock;

    @Parameters(paramLabel = "FILE", description = "The identity: sealed (age, scrypt) or plain (AGE-SECRET-KEY-1...).")
    Path file;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        Path f = ctx.resolve(file);
        byte[] bytes = InputFiles.read(f, 64 * 1024, "identity file");
        StoreIdentity id;
        try {
            if (!StoreIdentity.isSealed(bytes)) {
                id = StoreIdentity.parse(bytes);
            } else {
                try (Passphrase ip = identityPassphraseFile != null ? Passphrase.read(identityPassphraseFile)
                        : ctx.terminal().readSecret("Passphrase of " + file + ": ").filter(c -> c.length > 0).map(Passphrase::adopt)
                                .orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED,
                                        file + " is sealed with a passphrase: use --identity-passphrase-file"))) {
                    id = StoreIdentity.unlock(bytes, ip.chars(), file.toString());
                }
            }
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
        try (Passphrase p = StoreAccess.passphrase(ctx, pm.keys(), unlock.passphraseFile)) {
            int moved = HomeEncryption.adopt(pm, id, p);
            if (moved > 0) {
                ctx.err().println("proofmode: " + moved + " proof set(s) sealed");
            }
        } finally {
            id.destroy();
        }
        ctx.out().println("recipient:   " + pm.storeKeys().recipient());
        return ExitCodes.OK;
    }
}
