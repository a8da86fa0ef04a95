// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code proofmode keys protect}: change the device key's passphrase. */
@Command(name = "protect", mixinStandardHelpOptions = true, description = {"Change the passphrase of the device key.", "",
    "The current passphrase comes from the usual sources; the new one from --new-passphrase-file, "
        + "PROOFMODE_NEW_PASSPHRASE, or a prompt. A generated passphrase file is then wiped.", ""})
final class KeysProtectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--new-passphrase-file", paramLabel = "FILE", description = "The new passphrase.")
    Path newPassphraseFile;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        DeviceKeys keys = pm.keys();
        keys.info();
        if (keys.token().isPresent()) {
            throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token and has no passphrase; "
                    + "change the token's PIN with its own tools (e.g. pkcs11-tool --login --change-pin)");
        }
        try (Passphrase old = Passphrases.unlocking(ctx, unlock.passphraseFile, keys);
             Passphrase neu = Passphrases.choosing(ctx, newPassphraseFile, "the device key")) {
            keys.changePassphrase(old, neu);
            if (pm.storeKeys().exists()) {
                pm.storeKeys().reseal(old, neu);
                ctx.err().println("proofmode: the encrypted store's identity"
                        + (Files.isRegularFile(pm.storeKeys().watchKeyFile()) ? " and the watcher's key are" : " is")
                        + " sealed with the new passphrase too");
            }
        }
        ctx.err().println("proofmode: the device key now uses your passphrase; keep it safe, it cannot be recovered");
        return ExitCodes.OK;
    }
}
