package org.proofmode.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.proofmode.Failure;
import org.proofmode.ProofModeException;
import org.proofmode.metadata.SettingKey;
import org.proofmode.metadata.Settings;
import org.proofmode.metadata.SettingsFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode settings}: show and change what proofs record. */
@Command(name = "settings", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Show or change what proofs record beyond the file.",
            "",
            "Settings live in PROOFMODE_HOME/settings, a commented 'key = value' file written with every key on "
                + "first use. Keys: location, network, device-ids (all false by default, as in the ProofMode app), "
                + "image-hashes (true), j3m (false), gpsd.host, gpsd.port. Without arguments, prints every key.",
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

    static SettingKey key(String name) {
        return SettingKey.named(name).orElseThrow(() -> new ProofModeException(Failure.BAD_ARGUMENT,
                "unknown setting '" + name + "'; known: " + String.join(", ", SettingKey.names())));
    }

    /** {@code settings get KEY}. */
    @Command(name = "get", mixinStandardHelpOptions = true, description = "Print one setting's value.")
    static final class Get implements Callable<Integer> {
        @ParentCommand
        SettingsCommand parent;

        @Parameters(paramLabel = "KEY", description = "A setting's key, e.g. location.")
        String key;

        @Override
        public Integer call() {
            SettingKey k = key(key);
            parent.root.ctx.out().println(parent.root.proofMode().settings().get(k));
            return ExitCodes.OK;
        }
    }

    /** {@code settings set KEY VALUE}. */
    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change one setting in PROOFMODE_HOME/settings.")
    static final class Set implements Callable<Integer> {
        @ParentCommand
        SettingsCommand parent;

        @Parameters(index = "0", paramLabel = "KEY", description = "A setting's key, e.g. network.")
        String key;

        @Parameters(index = "1", paramLabel = "VALUE", description = "Its new value: true/false, a host, a port.")
        String value;

        @Override
        public Integer call() {
            SettingKey k = key(key);
            SettingsFile file = parent.root.proofMode().settingsFile();
            Settings s = file.set(k, value);
            parent.root.ctx.out().println(k.key() + " = " + s.get(k));
            return ExitCodes.OK;
        }
    }
}
