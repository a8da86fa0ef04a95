// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code proofmode keys rename}: give the device key a name, its OpenPGP user ID. */
@Command(name = "rename", mixinStandardHelpOptions = true, description = {"Give the device key a name: its OpenPGP user ID.", "",
    "Adds NAME as a user ID, certified by the key and made its primary one, and revokes the user IDs it had as no "
        + "longer valid, so gpg --show-keys, 'keys show' and verify's signer line show NAME alone. The key itself does "
        + "not change: its fingerprint stays, and every signature made before still verifies (with gpg and sqv too). "
        + "Share the key again ('keys export') so that recipients see the name; proofs made from now on carry it in "
        + "pubkey.asc. Unlocks the key (its passphrase as for prove). A key in a PKCS#11 token cannot be renamed yet "
        + "(exit 13).", ""},
    footer = {"", "Examples:", "  proofmode keys rename \"Alice Example, Example News\"", "", ExitCodes.HELP_TABLE})
final class KeysRenameCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    UnlockOptions unlock;

    @Parameters(paramLabel = "NAME", description = "The new user ID, e.g. \"Alice Example, Example News\" (1 to 256 characters).")
    String name;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        DeviceKeys keys = pm.keys();
        String id = DeviceKeys.checkUserId(name);
        keys.info();
        if (keys.token().isPresent()) {
            throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token: renaming it is not supported yet");
        }
        Path file = unlock.passphraseFile == null ? null : ctx.resolve(unlock.passphraseFile);
        try (Passphrase p = Passphrases.unlocking(ctx, file, keys)) {
            keys.rename(p, id);
        }
        KeyPrinter.print(ctx, keys);
        return ExitCodes.OK;
    }
}
