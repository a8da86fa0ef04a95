// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code proofmode SUBCOMMAND --help} prints that subcommand's usage, as every error message
 * ("Try 'proofmode keys --help' for more information.") and the Stateless OpenPGP CLI convention say.
 */
class SubcommandHelpIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} --help")
    @ValueSource(strings = {"prove", "verify", "export", "redact", "notarize", "keys", "keys import", "inspect", "compare", "settings", "settings set",
        "timestamp", "timestamp sync", "timestamp upgrade", "c2pa", "c2pa sign", "serve", "server", "server token", "server token create",
        "watch", "status", "wipe"})
    void help_exits0PrintingUsage_helpOptionAfterSubcommand(String subcommand) {
        String[] words = subcommand.split(" ");
        String[] args = new String[words.length + 1];
        System.arraycopy(words, 0, args, 0, words.length);
        args[words.length] = "--help";

        ProcessResult r = ProofModeJar.at(dir.resolve("home")).run(args);

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).startsWith("Usage: proofmode " + subcommand);
    }
}
