// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code proofmode keys create}: make the device key now, in a file or a PKCS#11 token. */
@Command(name = "create", mixinStandardHelpOptions = true, description = {"Create the device key now (prove does it on first use).", "",
    "With --pkcs11, the key pair is made inside a PKCS#11 token (an HSM, a TPM through tpm2-pkcs11, a smart card "
        + "or security key through OpenSC, SoftHSM) as a sensitive, never extractable object, and signs there; the "
        + "home keeps only its public key and where it is (keys/token.json). Its PIN comes from --pin-file, "
        + "PROOFMODE_PIN, or a prompt, whenever the key signs. Token keys are p256 (default) or rsa3072: Java's "
        + "PKCS#11 provider cannot sign with ed25519 (exit 13).", "",
    "--name sets the key's OpenPGP user ID, which gpg --show-keys, 'keys show' and every verify report's signer line "
        + "show: who stands behind the proofs. Without it the key is called 'ProofMode device key' and names no one; "
        + "'keys rename' names it later.", ""},
    footer = {"", "Examples:", "  proofmode keys create --name \"Alice Example, Example News\"",
        "  proofmode keys create --key-type rsa4096",
        "  proofmode keys create --pkcs11 /usr/lib/softhsm/libsofthsm2.so --token proofmode --pin-file pin.txt",
        "  proofmode keys create --pkcs11 /usr/lib/x86_64-linux-gnu/pkcs11/libtpm2_pkcs11.so.1 --token laptop", "",
        "Token problems: no module file, no such token, or the key gone from the token: 61; wrong or locked PIN: 67;",
        "a file that is no PKCS#11 module: 41; ed25519 or a type the token cannot make: 13; a full or failing token: 1.",
        "", ExitCodes.HELP_TABLE})
final class KeysCreateCommand implements Callable<Integer> {
    @Mixin
    KeyOptions keyOptions;

    @Mixin
    TokenOptions token;

    @Option(names = "--name", paramLabel = "NAME", description = "The key's user ID, e.g. \"Alice Example, Example News\" "
            + "(default: ProofMode device key, which names no one). Not for a key in a PKCS#11 token (exit 13).")
    String name;

    @Option(names = "--encrypt-store", description = "Also encrypt the proof store, as 'keys encrypt-store' does: needs a "
            + "passphrase you choose (--passphrase-file or PROOFMODE_PASSPHRASE), not a generated one nor a token.")
    boolean encryptStore;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        if (token.module == null) {
            token.refuseWithoutModule();
            if (encryptStore && Passphrases.given(ctx, keyOptions.passphraseFile).map(p -> {
                p.clear();
                return false;
            }).orElse(true)) {
                throw new ProofModeException(Failure.KEY_LOCKED, "--encrypt-store needs a passphrase you choose "
                        + "(--passphrase-file or PROOFMODE_PASSPHRASE): a generated one kept on disk would protect nothing");
            }
            DeviceKeyAccess.create(ctx, pm.keys(), keyOptions.keyType,
                    Passphrases.given(ctx, keyOptions.passphraseFile), name != null ? DeviceKeys.checkUserId(name) : DeviceKeys.USER_ID);
            KeyPrinter.print(ctx, pm.keys());
            if (encryptStore) {
                StoreAccess.encrypt(ctx, pm, keyOptions.passphraseFile);
            }
            return ExitCodes.OK;
        }
        if (encryptStore) {
            throw new ProofModeException(Failure.UNSUPPORTED, "--encrypt-store needs a device key with a passphrase here, not in a PKCS#11 token");
        }
        if (name != null) {
            throw new ProofModeException(Failure.UNSUPPORTED, "--name is not supported for a key in a PKCS#11 token yet: "
                    + "its user ID is 'ProofMode device key'");
        }
        KeyType type = spec.commandLine().getParseResult().hasMatchedOption("--key-type") ? keyOptions.keyType : KeyType.P256;
        DeviceKeys.requireTokenKeyType(type);
        if (pm.keys().exists()) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, "a device key exists already; use 'proofmode keys rotate --pkcs11 "
                    + token.module + "' to replace it (its public key is kept)");
        }
        try (Passphrase pin = Passphrases.pin(ctx, keyOptions.pinFile, token.describe())) {
            DeviceKeys.Created c = pm.keys().createOnToken(token.module, token.label(), type, pin, false);
            DeviceKeyAccess.announce(ctx, c, "created in the token");
        }
        KeyPrinter.print(ctx, pm.keys());
        return ExitCodes.OK;
    }
}
