// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proofmode keys encrypt-store}: encrypt the proof store. */
@Command(name = "encrypt-store", mixinStandardHelpOptions = true, description = {"Encrypt the proof store.", "",
    "Makes the store's age identity (X25519), sealed with the device key's passphrase in keys/store-identity.age, "
        + "and its recipient (age1...) in keys/store-recipient.txt. From then on every proof set is written sealed to "
        + "the recipient, in a folder with a random name, so that proving needs no unlocking and no name or byte in "
        + "the store tells what was proved; reading a stored proof (verify of a proved file, export) asks for the "
        + "passphrase. The proof sets already there are sealed the same way and their plain folders removed. "
        + "'proofmode wipe --keys' then makes the whole store unreadable at once.", "",
    "The watcher's database (watch.db) is sealed too, with a key of its own sealed with the same passphrase "
        + "(keys/watch-key.age), so that no path, file name or media hash stays readable in it; a running watcher "
        + "must be stopped first (exit 1).", "",
    "The device key must have a passphrase you chose ('proofmode keys protect'): a generated one is kept on "
        + "disk beside the key, where it would protect nothing (exit 67).", ""},
    footer = {"", "Examples:", "  proofmode keys protect", "  proofmode keys encrypt-store", "", ExitCodes.HELP_TABLE})
final class KeysEncryptStoreCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    UnlockOptions unlock;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        StoreAccess.encrypt(ctx, pm, unlock.passphraseFile);
        return ExitCodes.OK;
    }
}
