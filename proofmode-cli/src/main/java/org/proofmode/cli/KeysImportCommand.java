// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.util.InputFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofmode keys import}: use an existing OpenPGP secret key as the device key. */
@Command(name = "import", mixinStandardHelpOptions = true, description = {"Use an existing OpenPGP secret key as the device key.", "",
    "The key is re-encrypted with our settings. RSA keys under 2048 bits and keys without a valid "
        + "signing key (expired, revoked, SHA-1 self-signatures only) are refused (exit 13).", ""},
    footer = {"", "Examples:", "  gpg --export-secret-keys --armor alice@example.org > secret.asc",
        "  proofmode keys import --key-passphrase-file old.txt secret.asc",
        "  proofmode keys import --force secret.asc       (retire the current device key)", "", ExitCodes.HELP_TABLE})
final class KeysImportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--key-passphrase-file", paramLabel = "FILE", description = "The passphrase the key is protected with now.")
    Path keyPassphraseFile;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--force", description = "Retire the existing device key (its public key is kept).")
    boolean force;

    @Parameters(paramLabel = "FILE", description = "The secret key, armored or binary.")
    Path file;

    @Override
    public Integer call() throws IOException {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        byte[] bytes = InputFiles.read(file, InputFiles.KEY_BYTES, "key file");
        Optional<Passphrase> keyPass = Passphrases.given(ctx, keyPassphraseFile);
        Optional<Passphrase> newPass = unlock.passphraseFile != null ? Optional.of(Passphrase.read(unlock.passphraseFile)) : Optional.empty();
        try {
            DeviceKeys.Created c = pm.keys().importKey(bytes, file.toString(), keyPass, newPass, force);
            DeviceKeyAccess.announce(ctx, c, "imported");
            KeyPrinter.print(ctx, pm.keys());
        } finally {
            keyPass.ifPresent(Passphrase::clear);
            newPass.ifPresent(Passphrase::clear);
        }
        return ExitCodes.OK;
    }
}
