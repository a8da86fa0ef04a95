// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.context.SettingKey;
import org.proofmode.context.Settings;
import org.proofmode.context.SettingsFile;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode settings}: show and change what proofs record. */
@Command(name = "settings", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Show or change what proofs record beyond the file.",
            "",
            "Settings live in PROOFMODE_HOME/settings, a commented 'key = value' file written with every key on "
                + "first use. Keys: location, network, device-ids (all false by default, as in the ProofMode app), "
                + "image-hashes and frame-hashes (true), j3m (false), gpsd.host, gpsd.port. Without arguments, prints every key.",
            ""},
        subcommands = {SettingsCommand.Get.class, SettingsCommand.Set.class},
        footer = {"", "Examples:", "  proofmode settings", "  proofmode settings get location",
            "  proofmode settings set network true", "", ExitCodes.HELP_TABLE})
final class SettingsCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Override
    public Integer call() {
        Settings s = root.proofMode().settings();
        for (Map.Entry<SettingKey, String> e : s.values().entrySet()) {
            root.ctx.out().println(e.getKey().key() + " = " + e.getValue());
        }
        return ExitCodes.OK;
    }

    /**
     * Not a line of the settings file but the state of the home's store ({@code proofs/.encrypted}): set to
     * true, it encrypts the store as {@code keys encrypt-store} does.
     */
    static final String STORE_ENCRYPT = "store.encrypt";

    static SettingKey key(String name) {
        return SettingKey.named(name).orElseThrow(() -> new ProofModeException(Failure.BAD_ARGUMENT,
                "unknown setting '" + name + "'; known: " + String.join(", ", SettingKey.names())));
    }

    /** {@code settings get KEY}. */
    @Command(name = "get", mixinStandardHelpOptions = true, usageHelpAutoWidth = true, description = "Print one setting's value.",
            footer = {"", "Keys: location, network, device-ids, image-hashes, frame-hashes, j3m, gpsd.host, gpsd.port.",
                "", "Example:", "  proofmode settings get location      (prints true or false)", "", ExitCodes.HELP_TABLE})
    static final class Get implements Callable<Integer> {
        @ParentCommand
        SettingsCommand parent;

        @Parameters(paramLabel = "KEY", description = "A setting's key, e.g. location.")
        String key;

        @Override
        public Integer call() {
            if (key.equals(STORE_ENCRYPT)) {
                parent.root.ctx.out().println(parent.root.proofMode().store().isEncrypted());
                return ExitCodes.OK;
            }
            SettingKey k = key(key);
            parent.root.ctx.out().println(parent.root.proofMode().settings().get(k));
            return ExitCodes.OK;
        }
    }

    /** {@code settings set KEY VALUE}. */
    @Command(name = "set", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
            description = {"Change one setting in PROOFMODE_HOME/settings.", "",
                "The line of KEY is rewritten in place (atomically); comments and other lines are kept. An unknown "
                    + "key or a value the key does not take exits 37 and changes nothing."},
            footer = {"", "Keys and values:",
                "  location, network, device-ids   true or false (also on/off, yes/no); default false",
                "  image-hashes, frame-hashes      true or false; default true (frame-hashes needs ffmpeg)",
                "  j3m                             true or false; default false",
                "  gpsd.host                       a host name or IP address; default 127.0.0.1",
                "  gpsd.port                       1 to 65535; default 2947",
                "  store.encrypt                   true encrypts the proof store and seals the proofs in it (as 'keys",
                "                                  encrypt-store'); it cannot be turned off. Read from the store, not this file",
                "", "Examples:", "  proofmode settings set location true", "  proofmode settings set gpsd.port 2948",
                "", ExitCodes.HELP_TABLE})
    static final class Set implements Callable<Integer> {
        @ParentCommand
        SettingsCommand parent;

        @Parameters(index = "0", paramLabel = "KEY", description = "A setting's key, e.g. network.")
        String key;

        @Parameters(index = "1", paramLabel = "VALUE", description = "Its new value: true/false, a host, a port.")
        String value;

        @Mixin
        UnlockOptions unlock;

        @Override
        public Integer call() {
            if (key.equals(STORE_ENCRYPT)) {
                return setStoreEncrypt();
            }
            SettingKey k = key(key);
            SettingsFile file = parent.root.proofMode().settingsFile();
            Settings s = file.set(k, value);
            parent.root.ctx.out().println(k.key() + " = " + s.get(k));
            return ExitCodes.OK;
        }

        /** Encrypts the store (the migration of 'keys encrypt-store'); decrypting it back is not offered. */
        private int setStoreEncrypt() {
            String v = value.strip().toLowerCase(Locale.ROOT);
            boolean on = List.of("true", "on", "yes").contains(v);
            if (!on && !List.of("false", "off", "no").contains(v)) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, STORE_ENCRYPT + ": '" + SafeText.escape(value) + "' is not true or false");
            }
            ProofMode pm = parent.root.proofMode();
            if (!on) {
                if (pm.store().isEncrypted()) {
                    throw new ProofModeException(Failure.UNSUPPORTED, "store.encrypt cannot be turned off: an encrypted store is not "
                            + "decrypted back (export what you need, or wipe it with 'proofmode wipe --keys')");
                }
            } else if (!pm.store().isEncrypted()) {
                StoreAccess.encrypt(parent.root.ctx, pm, unlock.passphraseFile);
            }
            parent.root.ctx.out().println(STORE_ENCRYPT + " = " + parent.root.proofMode().store().isEncrypted());
            return ExitCodes.OK;
        }
    }
}
