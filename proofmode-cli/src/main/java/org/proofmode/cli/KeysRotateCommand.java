// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code proofmode keys rotate}: replace the device key by a new one. */
@Command(name = "rotate", mixinStandardHelpOptions = true, description = {"Replace the device key by a new one.", "",
    "The old public key is kept so that its proofs still verify; its secret key file is wiped (a key in a token "
        + "stays there; only the home's reference to it goes). With --pkcs11 the new key is made in a token.", ""},
    footer = {"", "Examples:", "  proofmode keys rotate",
        "  proofmode keys rotate --pkcs11 /usr/lib/softhsm/libsofthsm2.so --token proofmode", "", ExitCodes.HELP_TABLE})
final class KeysRotateCommand implements Callable<Integer> {
    @Option(names = "--key-type", paramLabel = "TYPE", defaultValue = "ed25519", description = "${COMPLETION-CANDIDATES}.")
    KeyType keyType;

    @Mixin
    UnlockOptions unlock;

    @Mixin
    TokenOptions token;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        if (token.module != null) {
            KeyType type = spec.commandLine().getParseResult().hasMatchedOption("--key-type") ? keyType : KeyType.P256;
            DeviceKeys.requireTokenKeyType(type);
            pm.keys().info();
            try (Passphrase pin = Passphrases.pin(ctx, unlock.pinFile, token.describe())) {
                DeviceKeys.Created c = pm.keys().createOnToken(token.module, token.label(), type, pin, true);
                DeviceKeyAccess.announce(ctx, c, "rotated to a key in the token:");
            }
            KeyPrinter.print(ctx, pm.keys());
            return ExitCodes.OK;
        }
        token.refuseWithoutModule();
        Optional<Passphrase> p = Passphrases.given(ctx, unlock.passphraseFile);
        try {
            DeviceKeys.Created c = pm.keys().rotate(keyType, p);
            DeviceKeyAccess.announce(ctx, c, "rotated to");
            KeyPrinter.print(ctx, pm.keys());
        } finally {
            p.ifPresent(Passphrase::clear);
        }
        return ExitCodes.OK;
    }
}
