// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import org.proofmode.keys.KeyType;
import picocli.CommandLine.Option;

/** The options of commands that sign: which key to create on first use, and the unlock options of every command. */
final class KeyOptions extends UnlockOptions {
    @Option(names = "--key-type", paramLabel = "TYPE", defaultValue = "ed25519",
            description = "Algorithm of the device key if it must be created: ${COMPLETION-CANDIDATES} "
                    + "(default: ${DEFAULT-VALUE}; rsa4096 is the Android app's type).")
    KeyType keyType;
}
