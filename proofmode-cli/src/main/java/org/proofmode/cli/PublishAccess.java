// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.publish.PublishToken;
import org.proofmode.publish.Publisher;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.util.Http;

/** The client of the evidence server this home publishes to ({@code publish}, {@code watch --publish}), with its upload token. */
final class PublishAccess {
    /** Where the addresses of resumable uploads under way are kept, under the home. */
    static final String UPLOADS = "publish/uploads";

    private PublishAccess() {}

    /**
     * The client of the server set in the home, with its token, through the chosen proxy.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} when no server or token is set, saying how
     */
    static Publisher publisher(CliContext ctx, ProofMode pm, Settings settings, ProxyOptions proxy) {
        return publisher(ctx, pm, settings, proxy, null);
    }

    /**
     * As {@link #publisher(CliContext, ProofMode, Settings, ProxyOptions)}; a token sealed to a store this
     * home cannot read now is opened with the store's identity, unlocked as any sealed read is (the agent,
     * the passphrase from {@code passphraseFile}, {@code PROOFMODE_PASSPHRASE} or a prompt).
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the identity cannot be unlocked
     */
    static Publisher publisher(CliContext ctx, ProofMode pm, Settings settings, ProxyOptions proxy, Path passphraseFile) {
        if (settings.publishServer().isEmpty()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "no evidence server is set: run 'proofmode publish login URL' "
                    + "(it reads the upload token from standard input)");
        }
        ProofMode reader = PublishToken.isSealed(pm.home()) && !pm.store().canRead() ? StoreAccess.reading(ctx, pm, passphraseFile) : pm;
        char[] kept = PublishToken.read(pm.home(), reader.store().queueSealing()).orElseThrow(() -> new ProofModeException(
                Failure.BAD_ARGUMENT, "no upload token for " + settings.publishServer() + ": run 'proofmode publish login "
                + settings.publishServer() + "'"));
        try {
            return client(pm, URI.create(settings.publishServer()), new String(kept), proxy.choose(settings));
        } finally {
            Arrays.fill(kept, '\0');
        }
    }

    /** A client of a server with a token, this home's time limits and resumable uploads' addresses. */
    static Publisher client(ProofMode pm, URI server, String token, Optional<Http.Socks> proxy) {
        return new Publisher(server, token, new Http(TimestampSettings.load(pm.home()).timeouts(), proxy), pm.home().resolve(UPLOADS),
                Publisher.RESUMABLE_FROM);
    }
}
