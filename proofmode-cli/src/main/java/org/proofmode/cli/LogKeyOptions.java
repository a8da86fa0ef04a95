// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.proofmode.server.LogPolicy;
import picocli.CommandLine.Option;

/** How the server's transparency-log key is made and unlocked: options shared by {@code serve} and {@code server log-key}. */
final class LogKeyOptions {
    @Option(names = "--log-origin", paramLabel = "ORIGIN", description = "Name of a new transparency log, the first line of its "
            + "checkpoints and the name of its key: a URL without scheme, e.g. evidence.example.org/log (default: HOSTNAME/proofmode-log). "
            + "Only used when the log key is made, on first start.")
    String origin;

    @Option(names = "--log-passphrase-file", paramLabel = "FILE", description = "File whose first line is the log key's passphrase. "
            + "Without it a passphrase is generated and kept owner-only beside the key (PROOFMODE_HOME/server/log-key/).")
    Path passphraseFile;

    LogPolicy policy() {
        return new LogPolicy(Optional.ofNullable(origin), Optional.ofNullable(passphraseFile), Duration.ofSeconds(1));
    }
}
