// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of every command that may unlock the device key, or an encrypted store's identity (sealed with
 * the same passphrase): one declaration, so that each such command takes them with the same names and help.
 * {@code UnlockOptionsTest} finds the commands that unlock in the compiled code and fails for one without
 * this mixin (or {@link KeyOptions}, which extends it).
 */
class UnlockOptions {
    @Option(names = "--passphrase-file", paramLabel = "FILE", description = "Read the device key's passphrase from FILE (first line) "
            + "instead of PROOFMODE_PASSPHRASE, the generated one kept beside the key, or a prompt; for a key being made, the "
            + "passphrase it gets. It also unlocks an encrypted store. A command with its own passphrase runs without the agent.")
    Path passphraseFile;

    @Option(names = "--pin-file", paramLabel = "FILE",
            description = "For a key in a PKCS#11 token: read the token's PIN from FILE (first line; else PROOFMODE_PIN, else a prompt).")
    Path pinFile;
}
