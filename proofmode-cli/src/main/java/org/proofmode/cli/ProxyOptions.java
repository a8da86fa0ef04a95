// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Optional;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;
import picocli.CommandLine.Option;

/** {@code --proxy} and {@code --tor}: every connection of a command through a SOCKS5 proxy. */
final class ProxyOptions {
    @Option(names = "--proxy", paramLabel = "socks5h://HOST:PORT", description = "Send every connection through this SOCKS5 proxy; "
            + "the proxy resolves host names (an .onion address works), none is looked up here, and nothing goes direct "
            + "(default: the setting publish.proxy). With no proxy at all, an .onion address is refused (exit 83), never looked up.")
    String proxy;

    @Option(names = "--tor", description = "Through Tor: the same as --proxy socks5h://127.0.0.1:9050.")
    boolean tor;

    /** Tells whether --proxy or --tor was given. */
    boolean given() {
        return tor || proxy != null;
    }

    /**
     * The proxy to use: the one named here, else the home's setting {@code publish.proxy}.
     *
     * @throws ProofModeException with {@link Failure#INCOMPATIBLE_OPTIONS} for both options,
     *     {@link Failure#BAD_ARGUMENT} for a proxy that is not {@code socks5h://HOST:PORT}
     */
    Optional<Http.Socks> choose(Settings settings) {
        if (tor && proxy != null) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--tor and --proxy: give one");
        }
        if (tor) {
            return Optional.of(Http.Socks.TOR);
        }
        if (proxy != null) {
            return Optional.of(Http.Socks.parse(proxy));
        }
        return settings.proxy();
    }
}
