// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Option;

/** Which PKCS#11 token holds the device key: the module and, where it offers several, the token's label. */
final class TokenOptions {
    @Option(names = "--pkcs11", paramLabel = "MODULE",
            description = "Keep the key in a PKCS#11 token: the module (shared library), e.g. /usr/lib/softhsm/libsofthsm2.so.")
    Path module;

    @Option(names = "--token", paramLabel = "LABEL", description = "With --pkcs11: the token's label (needed when the module offers several).")
    String token;

    Optional<String> label() {
        return Optional.ofNullable(token);
    }

    /** How a PIN prompt names the token. */
    String describe() {
        return token == null ? "the PKCS#11 token" : "the token \"" + SafeText.escape(token) + "\"";
    }

    /** A token label without a module is a mistake. */
    void refuseWithoutModule() {
        if (token != null) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--token goes with --pkcs11 MODULE");
        }
    }
}
