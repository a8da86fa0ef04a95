// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.proofmode.cli.print.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command that may unlock the device key or an encrypted store's identity takes the unlock options
 * of {@link UnlockOptions}: the commands that unlock are found in the compiled code (a method that reaches
 * one of the unlocking entry points, through any other method of the command line), so that a new command
 * cannot forget them.
 */
class UnlockOptionsTest {
    /** Where the command line unlocks a key or the store's identity: Class#method. */
    private static final Set<String> ENTRY_POINTS = Set.of(
            StoreAccess.class.getName() + "#reading", StoreAccess.class.getName() + "#passphrase",
            Passphrases.class.getName() + "#unlocking", Passphrases.class.getName() + "#given",
            DeviceKeyAccess.class.getName() + "#unlockOrCreate", DeviceKeyAccess.class.getName() + "#unlockOrCreateAsync",
            DeviceKeyAccess.class.getName() + "#createIfMissing",
            C2paAccess.class.getName() + "#unlock", C2paAccess.class.getName() + "#unlockBoth", C2paAccess.class.getName() + "#createCa");

    private static JavaClasses classes;
    private static Set<String> unlocking;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.proofmode.cli");
        unlocking = new HashSet<>(ENTRY_POINTS);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (JavaClass c : classes) {
                for (JavaCodeUnit u : c.getCodeUnits()) {
                    if (!unlocking.contains(key(u)) && callsUnlocking(u)) {
                        unlocking.add(key(u));
                        grew = true;
                    }
                }
            }
        }
    }

    private static String key(JavaCodeUnit u) {
        return u.getOwner().getName() + "#" + u.getName();
    }

    private static boolean callsUnlocking(JavaCodeUnit u) {
        for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
            if (unlocking.contains(call.getTarget().getOwner().getName() + "#" + call.getTarget().getName())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a command's class (its own methods, its lambdas and anonymous classes) reaches an unlocking entry point. */
    private static boolean unlocks(Class<?> command) {
        for (JavaClass c : classes) {
            String name = c.getName();
            boolean own = name.equals(command.getName()) || name.matches(java.util.regex.Pattern.quote(command.getName()) + "\\$\\d+.*");
            if (own && c.getCodeUnits().stream().anyMatch(u -> unlocking.contains(key(u)))) {
                return true;
            }
        }
        return false;
    }

    private static CommandLine commandLine() {
        CommandLine root = new CommandLine(new Main(new CliContext(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                Map.of(), Terminal.NONE)));
        for (Class<?> c : Main.SUBCOMMANDS) {
            root.addSubcommand(c);
        }
        return root;
    }

    private static List<CommandLine> commands() {
        CommandLine root = commandLine();
        List<CommandLine> all = new ArrayList<>();
        List<CommandLine> todo = new ArrayList<>(root.getSubcommands().values());
        while (!todo.isEmpty()) {
            CommandLine c = todo.remove(todo.size() - 1);
            if (!all.contains(c)) {
                all.add(c);
                todo.addAll(c.getSubcommands().values());
            }
        }
        return all;
    }

    private static boolean hasUnlockMixin(CommandSpec spec) {
        return spec.mixins().values().stream().anyMatch(m -> m.userObject() instanceof UnlockOptions);
    }

    @Test
    void everyCommandThatUnlocks_hasUnlockOptions() {
        List<String> unlockingCommands = new ArrayList<>();
        List<String> without = new ArrayList<>();
        for (CommandLine c : commands()) {
            Class<?> type = c.getCommandSpec().userObject().getClass();
            if (unlocks(type)) {
                unlockingCommands.add(c.getCommandSpec().qualifiedName());
                if (!hasUnlockMixin(c.getCommandSpec())) {
                    without.add(c.getCommandSpec().qualifiedName());
                }
            }
        }
        // The guard sees the commands known to unlock, or it would pass whatever the code did.
        assertThat(unlockingCommands).contains("proofmode prove", "proofmode verify", "proofmode export", "proofmode timestamp",
                "proofmode publish", "proofmode notarize", "proofmode report", "proofmode status", "proofmode agent", "proofmode compare");
        assertThat(without).as("commands that unlock a key or the store without UnlockOptions").isEmpty();
    }

    @Test
    void passphraseFile_sameNameAndHelp_onEveryCommand() {
        OptionSpec reference = CommandSpec.forAnnotatedObject(new UnlockOptions()).findOption("--passphrase-file");
        int seen = 0;
        for (CommandLine c : commands()) {
            OptionSpec o = c.getCommandSpec().findOption("--passphrase-file");
            if (o != null) {
                seen++;
                assertThat(o.description()).as(c.getCommandSpec().qualifiedName()).containsExactly(reference.description());
                assertThat(c.getCommandSpec().findOption("--pin-file")).as(c.getCommandSpec().qualifiedName()).isNotNull();
            }
        }
        assertThat(seen).isGreaterThan(10);
    }

    @Test
    void passphraseFile_parses_onEveryCommandThatUnlocks() {
        int parsed = 0;
        for (CommandLine c : commands()) {
            if (hasUnlockMixin(c.getCommandSpec())) {
                String name = c.getCommandSpec().qualifiedName();
                // The command alone, its errors (a required argument not given here) collected: only the options matter.
                CommandLine alone = new CommandLine(c.getCommandSpec().userObject().getClass());
                alone.getCommandSpec().parser().collectErrors(true);
                CommandLine.ParseResult r = alone.parseArgs("--passphrase-file", "pass.txt", "--pin-file", "pin.txt");
                assertThat(r.matchedOptionValue("--passphrase-file", java.nio.file.Path.of("none"))).as(name)
                        .isEqualTo(java.nio.file.Path.of("pass.txt"));
                assertThat(r.matchedOptionValue("--pin-file", java.nio.file.Path.of("none"))).as(name)
                        .isEqualTo(java.nio.file.Path.of("pin.txt"));
                parsed++;
            }
        }
        assertThat(parsed).isGreaterThan(10);
    }
}
