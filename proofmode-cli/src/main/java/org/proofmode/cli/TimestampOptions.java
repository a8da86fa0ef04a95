// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options of commands that get timestamps: which services, which roots, and whether one is required now. */
final class TimestampOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    ProxyOptions proxy;

    @Option(names = "--tsa", paramLabel = "URL", description = "Get an RFC 3161 token from this time-stamp authority (repeatable: tried in order).")
    List<URI> tsa = new ArrayList<>();

    @Option(names = "--ots", description = "Get an OpenTimestamps proof from the calendars in PROOFMODE_HOME/timestamp.conf (default: the public ones).")
    boolean ots;

    @Option(names = "--calendar", paramLabel = "URL", description = "Use this OpenTimestamps calendar instead of the configured ones (repeatable; implies --ots).")
    List<URI> calendars = new ArrayList<>();

    @Option(names = "--tsa-trust", paramLabel = "CA.pem", description = "Trust this time-stamp root (repeatable), besides PROOFMODE_HOME/tsa-roots/*.pem.")
    List<Path> tsaTrust = new ArrayList<>();

    @Option(names = "--require-timestamp", description = "Exit 47 if a timestamp service cannot be reached now (the proof is kept, the request queued).")
    boolean requireTimestamp;

    /** Tells whether any service was named on the command line. */
    boolean anyNamed() {
        return !tsa.isEmpty() || ots || !calendars.isEmpty();
    }

    /**
     * The request of a command that stamps only when asked ({@code --timestamp}, or a service named).
     *
     * @param home the ProofMode home, named in the error
     * @param settings the home's settings
     * @param timestamp whether {@code --timestamp} was given
     * @return empty when no stamping was asked
     * @throws ProofModeException with {@link Failure#INCOMPATIBLE_OPTIONS} if {@code --timestamp}
     *     was given and the settings name no service
     */
    Optional<StampRequest> asked(Path home, TimestampSettings settings, boolean timestamp) {
        if (!timestamp && !anyNamed()) {
            return Optional.empty();
        }
        Optional<StampRequest> r = request(settings, timestamp);
        if (r.isEmpty()) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--timestamp: no service in "
                    + home.resolve(TimestampSettings.FILE) + " (add tsa.url or ots.calendar lines)");
        }
        return r;
    }

    /**
     * The request for these options.
     *
     * @param settings the home's settings
     * @param configuredIfNone whether to use every configured service when none is named
     * @return empty when nothing is to be stamped
     */
    Optional<StampRequest> request(TimestampSettings settings, boolean configuredIfNone) {
        for (URI u : tsa) {
            checkUrl(u, "--tsa");
        }
        for (URI u : calendars) {
            checkUrl(u, "--calendar");
        }
        List<URI> tsaUrls = tsa;
        List<URI> cals = !calendars.isEmpty() ? calendars : ots ? settings.calendars() : List.of();
        if (!anyNamed()) {
            if (!configuredIfNone) {
                return Optional.empty();
            }
            tsaUrls = settings.tsaUrls();
            cals = settings.calendars();
        }
        if (tsaUrls.isEmpty() && cals.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StampRequest(tsaUrls, cals));
    }

    /** The roots given with {@code --tsa-trust}. */
    List<X509Certificate> roots() {
        List<X509Certificate> out = new ArrayList<>();
        for (Path p : tsaTrust) {
            out.addAll(TrustedRoots.read(p));
        }
        return out;
    }

    private void checkUrl(URI u, String option) {
        String scheme = u.getScheme() == null ? "" : u.getScheme();
        if (!(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https")) || u.getHost() == null) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '" + option + "': " + u + " is not an http(s) URL");
        }
    }

    /** The home's timestamp service, through the proxy these options or the settings name. */
    Timestamps timestamps(ProofMode pm) {
        return pm.timestamps(roots(), proxy.choose(pm.settings()));
    }
}
