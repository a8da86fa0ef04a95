// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import org.proofmode.keys.KeyType;
import picocli.CommandLine.Option;

/** The options of commands that sign: which key to create on first use, and where its passphrase is. */
final class KeyOptions {
    @Option(names = "--key-type", paramLabel = "TYPE", defaultValue = "ed25519",
            description = "Algorithm of the device key if it must be created: ${COMPLETION-CANDIDATES} "
                    + "(default: ${DEFAULT-VALUE}; rsa4096 is the Android app's type).")
    KeyType keyType;

    @Option(names = "--passphrase-file", paramLabel = "FILE", description = "Read the key passphrase from FILE (first line).")
    Path passphraseFile;

    @Option(names = "--pin-file", paramLabel = "FILE",
            description = "For a key in a PKCS#11 token: read the token's PIN from FILE (first line; else PROOFMODE_PIN, else a prompt).")
    Path pinFile;
}
