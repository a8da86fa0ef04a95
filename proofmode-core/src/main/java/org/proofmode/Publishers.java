// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.context.SettingKey;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.publish.PublishToken;
import org.proofmode.publish.Publisher;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.util.SafeText;

/**
 * A home's evidence server: the client of the server set in its settings with the upload token it keeps
 * ({@link #configured}), and setting them ({@link #login}). {@code proofmode publish} and the watcher
 * publish through it.
 *
 * <p>Security: the token is a {@code char[]} on the way in and cleared once kept; it is kept owner-only,
 * or sealed to the store's recipient when the store is encrypted ({@link PublishToken}). A plain
 * {@code http://} server is accepted only for an {@code .onion} address or this machine.
 */
public final class Publishers {
    private Publishers() {}

    /**
     * Whether the home's upload token is sealed to a store that {@code pm} cannot read now, so that the
     * store's identity must be unlocked before {@link #configured}.
     */
    public static boolean tokenNeedsIdentity(ProofMode pm) {
        return PublishToken.isSealed(pm.home()) && !pm.store().canRead();
    }

    /**
     * The client of the server set in the home, with its token, through a proxy if given.
     *
     * @param pm the home
     * @param reader the home able to open a sealed token ({@code pm} itself unless {@link #tokenNeedsIdentity})
     * @param settings the home's settings
     * @param proxy the SOCKS5 proxy every connection goes through, if any
     * @return the client
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} when no server or token is set, saying how
     */
    public static Publisher configured(ProofMode pm, ProofMode reader, Settings settings, Optional<Http.Socks> proxy) {
        if (settings.publishServer().isEmpty()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "no evidence server is set: run 'proofmode publish login URL' "
                    + "(it reads the upload token from standard input)");
        }
        char[] kept = PublishToken.read(pm.home(), reader.store().queueSealing()).orElseThrow(() -> new ProofModeException(
                Failure.BAD_ARGUMENT, "no upload token for " + settings.publishServer() + ": run 'proofmode publish login "
                + settings.publishServer() + "'"));
        try {
            return client(pm, URI.create(settings.publishServer()), new String(kept), proxy);
        } finally {
            Arrays.fill(kept, '\0');
        }
    }

    /**
     * What {@link #login} did.
     *
     * @param server the server's URL as set
     * @param checked what the server said of the token, or why it was not checked
     * @param file where the token is kept
     * @param sealed whether it is sealed to the encrypted store
     */
    public record LoggedIn(String server, String checked, Path file, boolean sealed) {
        /** Validates the fields. */
        public LoggedIn {
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(checked, "checked");
            Objects.requireNonNull(file, "file");
        }
    }

    /**
     * Sets the home's evidence server and keeps its upload token: the server is asked once whether it
     * takes the token; when it cannot be reached now, the token is kept anyway.
     *
     * @param pm the home
     * @param url the server's base URL
     * @param token the token as given (its surrounding blanks are dropped); the caller clears it
     * @param proxy the SOCKS5 proxy to ask the server through, if any
     * @return what was set
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a bad URL or token, or a token the server refuses
     */
    public static LoggedIn login(ProofMode pm, String url, char[] token, Optional<Http.Socks> proxy) {
        String server = SettingKey.PUBLISH_SERVER.canonical(url);
        if (server.isEmpty()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "give the server's URL");
        }
        URI u = URI.create(server);
        String host = u.getHost();
        boolean local = host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]") || host.equals("::1");
        if (u.getScheme().equals("http") && !host.endsWith(".onion") && !local) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, SafeText.escape(server) + ": use https:// (plain http is "
                    + "accepted only for an .onion address, which Tor authenticates, or this machine)");
        }
        String t = new String(token).strip();
        if (!t.matches("[A-Za-z0-9_\\-.]{8,512}")) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "that is not an upload token (expected letters, digits, '_', '-' "
                    + "and '.', as 'proofmode server token create' prints it)");
        }
        Publisher publisher = client(pm, u, t, proxy);
        String checked;
        try {
            Publisher.TokenCheck said = publisher.check();
            // the name and scope are the server's words: a hostile server's escapes are shown, not run
            checked = "the server takes the token" + (said.name().isEmpty() ? "" : " '" + SafeText.escape(said.name()) + "'")
                    + (said.scope().isEmpty() ? "" : ", scope " + SafeText.escape(said.scope()));
        } catch (ProofModeException e) {
            if (e.failure() != Failure.SERVICE_UNREACHABLE) {
                throw e;
            }
            checked = "not checked: " + e.getMessage();
        }
        char[] clean = t.toCharArray();
        Path file;
        try {
            file = PublishToken.keep(pm.home(), clean, pm.store().queueSealing());
        } finally {
            Arrays.fill(clean, '\0');
        }
        pm.settingsFile().set(SettingKey.PUBLISH_SERVER, server);
        return new LoggedIn(server, checked, file, PublishToken.isSealed(pm.home()));
    }

    /** A client of a server with a token, this home's time limits and resumable uploads' addresses. */
    private static Publisher client(ProofMode pm, URI server, String token, Optional<Http.Socks> proxy) {
        return new Publisher(server, token, new Http(TimestampSettings.load(pm.home()).timeouts(), proxy), Home.PUBLISH_UPLOADS.in(pm.home()),
                Publisher.RESUMABLE_FROM);
    }
}
