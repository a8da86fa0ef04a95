// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.KeyStorage;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.TokenReference;
import org.proofmode.proof.ProofTimes;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import org.proofmode.age.StoreIdentity;
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
            KeysCommand.Import.class, KeysCommand.Protect.class, KeysCommand.Rename.class, KeysCommand.Rotate.class, KeysCommand.Use.class,
            KeysCommand.EncryptStore.class, KeysCommand.ExportIdentity.class, KeysCommand.ImportIdentity.class})
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
    static final class Create implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

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

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            if (token.module == null) {
                token.refuseWithoutModule();
                if (encryptStore && Passphrases.given(parent.ctx(), keyOptions.passphraseFile).map(p -> {
                    p.clear();
                    return false;
                }).orElse(true)) {
                    throw new ProofModeException(Failure.KEY_LOCKED, "--encrypt-store needs a passphrase you choose "
                            + "(--passphrase-file or PROOFMODE_PASSPHRASE): a generated one kept on disk would protect nothing");
                }
                DeviceKeyAccess.create(parent.ctx(), parent.keys(), keyOptions.keyType,
                        Passphrases.given(parent.ctx(), keyOptions.passphraseFile), name != null ? DeviceKeys.checkUserId(name) : DeviceKeys.USER_ID);
                print(parent.ctx(), parent.keys());
                if (encryptStore) {
                    EncryptStore.encryptStore(parent.ctx(), parent.root.proofMode(), keyOptions.passphraseFile);
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
            if (parent.keys().exists()) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, "a device key exists already; use 'proofmode keys rotate --pkcs11 "
                        + token.module + "' to replace it (its public key is kept)");
            }
            try (Passphrase pin = Passphrases.pin(parent.ctx(), keyOptions.pinFile, token.describe())) {
                DeviceKeys.Created c = parent.keys().createOnToken(token.module, token.label(), type, pin, false);
                DeviceKeyAccess.announce(parent.ctx(), c, "created in the token");
            }
            print(parent.ctx(), parent.keys());
            return ExitCodes.OK;
        }
    }

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
    static final class Use implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

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
            if (token.module == null) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "keys use needs --pkcs11 MODULE");
            }
            try (Passphrase pin = Passphrases.pin(parent.ctx(), pinFile, token.describe())) {
                DeviceKeys.Created c = parent.keys().useTokenKey(token.module, token.label(), keyId, pin, force);
                DeviceKeyAccess.announce(parent.ctx(), c, "now using the token's key");
            }
            print(parent.ctx(), parent.keys());
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the device key: fingerprint, type, creation time.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Override
        public Integer call() {
            print(parent.ctx(), parent.keys());
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

        @Mixin
        UnlockOptions unlock;

        @Option(names = "--force", description = "Retire the existing device key (its public key is kept).")
        boolean force;

        @Parameters(paramLabel = "FILE", description = "The secret key, armored or binary.")
        Path file;

        @Override
        public Integer call() throws IOException {
            byte[] bytes = InputFiles.read(file, InputFiles.KEY_BYTES, "key file");
            Optional<Passphrase> keyPass = Passphrases.given(parent.ctx(), keyPassphraseFile);
            Optional<Passphrase> newPass = unlock.passphraseFile != null ? Optional.of(Passphrase.read(unlock.passphraseFile)) : Optional.empty();
            try {
                DeviceKeys.Created c = parent.keys().importKey(bytes, file.toString(), keyPass, newPass, force);
                DeviceKeyAccess.announce(parent.ctx(), c, "imported");
                print(parent.ctx(), parent.keys());
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

        @Mixin
        UnlockOptions unlock;

        @Option(names = "--new-passphrase-file", paramLabel = "FILE", description = "The new passphrase.")
        Path newPassphraseFile;

        @Override
        public Integer call() {
            DeviceKeys keys = parent.keys();
            keys.info();
            if (keys.token().isPresent()) {
                throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token and has no passphrase; "
                        + "change the token's PIN with its own tools (e.g. pkcs11-tool --login --change-pin)");
            }
            try (Passphrase old = Passphrases.unlocking(parent.ctx(), unlock.passphraseFile, keys);
                 Passphrase neu = Passphrases.choosing(parent.ctx(), newPassphraseFile, "the device key")) {
                keys.changePassphrase(old, neu);
                if (parent.root.proofMode().storeKeys().exists()) {
                    parent.root.proofMode().storeKeys().reseal(old, neu);
                    parent.ctx().err().println("proofmode: the encrypted store's identity"
                            + (Files.isRegularFile(parent.root.proofMode().storeKeys().watchKeyFile()) ? " and the watcher's key are" : " is")
                            + " sealed with the new passphrase too");
                }
            }
            parent.ctx().err().println("proofmode: the device key now uses your passphrase; keep it safe, it cannot be recovered");
            return ExitCodes.OK;
        }
    }

    @Command(name = "rename", mixinStandardHelpOptions = true, description = {"Give the device key a name: its OpenPGP user ID.", "",
        "Adds NAME as a user ID, certified by the key and made its primary one, and revokes the user IDs it had as no "
            + "longer valid, so gpg --show-keys, 'keys show' and verify's signer line show NAME alone. The key itself does "
            + "not change: its fingerprint stays, and every signature made before still verifies (with gpg and sqv too). "
            + "Share the key again ('keys export') so that recipients see the name; proofs made from now on carry it in "
            + "pubkey.asc. Unlocks the key (its passphrase as for prove). A key in a PKCS#11 token cannot be renamed yet "
            + "(exit 13).", ""},
        footer = {"", "Examples:", "  proofmode keys rename \"Alice Example, Example News\"", "", ExitCodes.HELP_TABLE})
    static final class Rename implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Mixin
        UnlockOptions unlock;

        @Parameters(paramLabel = "NAME", description = "The new user ID, e.g. \"Alice Example, Example News\" (1 to 256 characters).")
        String name;

        @Override
        public Integer call() {
            DeviceKeys keys = parent.keys();
            String id = DeviceKeys.checkUserId(name);
            keys.info();
            if (keys.token().isPresent()) {
                throw new ProofModeException(Failure.UNSUPPORTED, "the device key is in a PKCS#11 token: renaming it is not supported yet");
            }
            Path file = unlock.passphraseFile == null ? null : parent.ctx().resolve(unlock.passphraseFile);
            try (Passphrase p = Passphrases.unlocking(parent.ctx(), file, keys)) {
                keys.rename(p, id);
            }
            print(parent.ctx(), keys);
            return ExitCodes.OK;
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true, description = {"Replace the device key by a new one.", "",
        "The old public key is kept so that its proofs still verify; its secret key file is wiped (a key in a token "
            + "stays there; only the home's reference to it goes). With --pkcs11 the new key is made in a token.", ""},
        footer = {"", "Examples:", "  proofmode keys rotate",
            "  proofmode keys rotate --pkcs11 /usr/lib/softhsm/libsofthsm2.so --token proofmode", "", ExitCodes.HELP_TABLE})
    static final class Rotate implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = "--key-type", paramLabel = "TYPE", defaultValue = "ed25519", description = "${COMPLETION-CANDIDATES}.")
        KeyType keyType;

        @Mixin
        UnlockOptions unlock;

        @Mixin
        TokenOptions token;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            if (token.module != null) {
                KeyType type = spec.commandLine().getParseResult().hasMatchedOption("--key-type") ? keyType : KeyType.P256;
                DeviceKeys.requireTokenKeyType(type);
                parent.keys().info();
                try (Passphrase pin = Passphrases.pin(parent.ctx(), unlock.pinFile, token.describe())) {
                    DeviceKeys.Created c = parent.keys().createOnToken(token.module, token.label(), type, pin, true);
                    DeviceKeyAccess.announce(parent.ctx(), c, "rotated to a key in the token:");
                }
                print(parent.ctx(), parent.keys());
                return ExitCodes.OK;
            }
            token.refuseWithoutModule();
            Optional<Passphrase> p = Passphrases.given(parent.ctx(), unlock.passphraseFile);
            try {
                DeviceKeys.Created c = parent.keys().rotate(keyType, p);
                DeviceKeyAccess.announce(parent.ctx(), c, "rotated to");
                print(parent.ctx(), parent.keys());
            } finally {
                p.ifPresent(Passphrase::clear);
            }
            return ExitCodes.OK;
        }
    }

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
    static final class EncryptStore implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Mixin
        UnlockOptions unlock;

        @Override
        public Integer call() {
            encryptStore(parent.ctx(), parent.root.proofMode(), unlock.passphraseFile);
            return ExitCodes.OK;
        }

        /**
         * Makes the home's store encrypted, sealing the sets it holds ({@code keys encrypt-store},
         * {@code keys create --encrypt-store}, {@code settings set store.encrypt true}): its identity is made and
         * sealed with the device key's passphrase, which must be one the user chose.
         *
         * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is generated, missing or
         *     wrong, {@link Failure#OUTPUT_EXISTS} if the store is encrypted already
         */
        static void encryptStore(CliContext ctx, ProofMode pm, Path passphraseFile) {
            DeviceKeys keys = pm.keys();
            keys.info();
            if (keys.storedPassphrase().map(p -> {
                p.clear();
                return true;
            }).orElse(false)) {
                throw new ProofModeException(Failure.KEY_LOCKED, "the device key's passphrase was generated and is kept on disk, where it "
                        + "would protect nothing: choose one first ('proofmode keys protect')");
            }
            WatchCommand.requireNoWatcher(pm);
            try (Passphrase p = StoreAccess.passphrase(ctx, keys, passphraseFile)) {
                keys.unlock(p);
                ProofMode.Encrypted e = pm.encryptStore(p);
                e.identity().destroy();
                WatchCommand.sealDatabase(pm, p);
                ctx.out().println("recipient:   " + pm.storeKeys().recipient());
                ctx.err().println("proofmode: the proof store is encrypted" + (e.moved() > 0 ? "; " + e.moved() + " proof set(s) sealed" : "")
                        + "; keep a copy of its identity elsewhere ('proofmode keys export-identity'): without it nothing stored can be read");
            }
        }
    }

    @Command(name = "export-identity", mixinStandardHelpOptions = true, description = {"Write the encrypted store's age identity.", "",
        "By default it is written sealed with the device key's passphrase: an age file that 'age -d' opens with that "
            + "passphrase, giving an identity file for 'age -d -i'. With --plain it is written as age-keygen writes it, "
            + "in the clear: anyone who has the file reads every stored proof.", ""},
        footer = {"", "Examples:", "  proofmode keys export-identity -o store-identity.age",
            "  age -d store-identity.age > identity.txt      (asks for the passphrase)",
            "  age -d -i identity.txt PROOFMODE_HOME/proofs/<folder>/0.age", "", ExitCodes.HELP_TABLE})
    static final class ExportIdentity implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The file to write (readable by you only).")
        Path output;

        @Option(names = "--plain", description = "Write the identity in the clear (age-keygen's form).")
        boolean plain;

        @Mixin
        UnlockOptions unlock;

        @Option(names = "--force", description = "Replace FILE if it exists.")
        boolean force;

        @Override
        public Integer call() throws IOException {
            ProofMode pm = parent.root.proofMode();
            byte[] content;
            if (plain) {
                try (Passphrase p = StoreAccess.passphrase(parent.ctx(), pm.keys(), unlock.passphraseFile)) {
                    StoreIdentity id = pm.storeKeys().unlock(p);
                    content = id.text(Instant.now());
                    id.destroy();
                }
            } else {
                content = pm.storeKeys().sealedIdentity();
            }
            try {
                AtomicFiles.write(parent.ctx().resolve(output), content, force, true);
            } catch (FileAlreadyExistsException e) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force)");
            } finally {
                Arrays.fill(content, (byte) 0);
            }
            if (plain) {
                parent.ctx().err().println("proofmode: WARNING: " + output + " holds the store's identity in the clear: whoever has it reads "
                        + "every stored proof; keep it offline and delete it when done");
            }
            parent.ctx().out().println(output);
            return ExitCodes.OK;
        }
    }

    @Command(name = "import-identity", mixinStandardHelpOptions = true, description = {"Use another machine's encrypted-store identity.", "",
        "For a second machine of the same desk: FILE is what 'keys export-identity' wrote there (sealed with that "
            + "machine's passphrase, asked for as the identity's passphrase, from --identity-passphrase-file or a prompt) "
            + "or an age-keygen identity in the clear. It is sealed here with this device key's passphrase and the store "
            + "becomes encrypted to it. A store encrypted to another identity is refused (exit 59).", ""},
        footer = {"", "Examples:", "  proofmode keys import-identity store-identity.age", "", ExitCodes.HELP_TABLE})
    static final class ImportIdentity implements Callable<Integer> {
        @ParentCommand
        KeysCommand parent;

        @Option(names = "--identity-passphrase-file", paramLabel = "FILE", description = "The passphrase FILE is sealed with.")
        Path identityPassphraseFile;

        @Mixin
        UnlockOptions unlock;

        @Parameters(paramLabel = "FILE", description = "The identity: sealed (age, scrypt) or plain (AGE-SECRET-KEY-1...).")
        Path file;

        @Override
        public Integer call() {
            ProofMode pm = parent.root.proofMode();
            Path f = parent.ctx().resolve(file);
            byte[] bytes = InputFiles.read(f, 64 * 1024, "identity file");
            StoreIdentity id;
            try {
                if (!StoreIdentity.isSealed(bytes)) {
                    id = StoreIdentity.parse(bytes);
                } else {
                    try (Passphrase ip = identityPassphraseFile != null ? Passphrase.read(identityPassphraseFile)
                            : parent.ctx().terminal().readSecret("Passphrase of " + file + ": ").filter(c -> c.length > 0).map(Passphrase::adopt)
                                    .orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED,
                                            file + " is sealed with a passphrase: use --identity-passphrase-file"))) {
                        id = StoreIdentity.unlock(bytes, ip.chars(), file.toString());
                    }
                }
            } finally {
                Arrays.fill(bytes, (byte) 0);
            }
            try (Passphrase p = StoreAccess.passphrase(parent.ctx(), pm.keys(), unlock.passphraseFile)) {
                WatchCommand.requireNoWatcher(pm);
                pm.keys().unlock(p);
                int moved = pm.adoptStoreIdentity(id, p);
                WatchCommand.sealDatabase(pm, p);
                if (moved > 0) {
                    parent.ctx().err().println("proofmode: " + moved + " proof set(s) sealed");
                }
            } finally {
                id.destroy();
            }
            parent.ctx().out().println("recipient:   " + pm.storeKeys().recipient());
            return ExitCodes.OK;
        }
    }

    static void print(CliContext ctx, DeviceKeys keys) {
        print(ctx, keys.info());
        Optional<TokenReference> token = keys.token();
        ctx.out().println("storage:     " + token.map(t -> SafeText.escape(t.storage()) + " (token \"" + SafeText.escape(t.tokenLabel())
                + "\", serial " + SafeText.escape(t.tokenSerial()) + ", key id " + SafeText.escape(t.keyId()) + ", module " + t.module() + ")")
                .orElse(KeyStorage.FILE + " (encrypted with a passphrase)"));
    }

    static void print(CliContext ctx, KeyInfo info) {
        ctx.out().println("fingerprint: " + info.fingerprint());
        ctx.out().println("type:        " + info.algorithm());
        ctx.out().println("created:     " + ProofTimes.format(info.created()));
        // A user ID comes from whoever made the key (keys import): escaped, one line.
        ctx.out().println("user id:     " + SafeText.escape(info.userId()));
    }
}
