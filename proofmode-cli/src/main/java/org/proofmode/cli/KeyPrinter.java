// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Optional;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.KeyStorage;
import org.proofmode.keys.TokenReference;
import org.proofmode.proof.ProofTimes;
import org.proofmode.util.SafeText;

/** How the {@code keys} subcommands show the device key: fingerprint, type, creation, user ID, storage. */
final class KeyPrinter {
    private KeyPrinter() {}

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
