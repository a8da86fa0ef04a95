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
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code proofmode keys use}: make a key already in a PKCS#11 token the device key. */
@Command(name = "use", mixinStandardHelpOptions = true, description = {"Make a key already in a PKCS#11 token the device key.", "",
    "An EC P-256 or RSA key, named by its label or its hex ID. A key with no certificate under the same ID (one "
        + "that pkcs11-tool --keypairgen made) gets one in the token, self-signed by the key and labelled ID, since "
        + "that is how Java's PKCS#11 provider finds a private key; keys made by 'keys create --pkcs11' (for another "
        + "home) and those of smart cards have one. The home keeps its public key and where it is; the current "
        + "device key, if any, is retired with --force (its public key is kept).", ""},
    footer = {"", "Examples:", "  pkcs11-tool --module /usr/lib/softhsm/libsofthsm2.so --login -O      (list the keys and their IDs)",
        "  proofmode keys use --pkcs11 /usr/lib/softhsm/libsofthsm2.so --token proofmode --key-id proofmode-1a2b3c4d",
        "  pkcs11-tool --module /usr/lib/softhsm/libsofthsm2.so --login --keypairgen --key-type EC:prime256v1 --id 01 --label field-key",
        "  proofmode keys use --pkcs11 /usr/lib/softhsm/libsofthsm2.so --key-id field-key", "",
        ExitCodes.HELP_TABLE})
final class KeysUseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TokenOptions token;

    @Option(names = "--key-id", paramLabel = "ID", required = true, description = "The key's label in the token, or its ID in hex.")
    String keyId;

    @Option(names = "--pin-file", paramLabel = "FILE", description = "Read the token's PIN from FILE (else PROOFMODE_PIN, else a prompt).")
    Path pinFile;

    @Option(names = "--force", description = "Retire the existing device key (its public key is kept).")
    boolean force;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        if (token.module == null) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "keys use needs --pkcs11 MODULE");
        }
        try (Passphrase pin = Passphrases.pin(ctx, pinFile, token.describe())) {
            DeviceKeys.Created c = pm.keys().useTokenKey(token.module, token.label(), keyId, pin, force);
            DeviceKeyAccess.announce(ctx, c, "now using the token's key");
        }
        KeyPrinter.print(ctx, pm.keys());
        return ExitCodes.OK;
    }
}
