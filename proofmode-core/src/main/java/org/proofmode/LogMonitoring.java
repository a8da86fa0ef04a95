// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.timestamp.rfc3161.TokenVerifier;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.timestamp.rfc3161.TsaToken;
import org.proofmode.tlog.LogMonitor;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;

/**
 * {@code proofmode log monitor}: one check of an evidence server's transparency log from outside
 * ({@link LogMonitor}) against the checkpoint this home saw last time, kept in {@link Home#LOG_MONITOR},
 * with the current checkpoint's RFC 3161 time-stamp checked when the log serves one.
 */
public final class LogMonitoring {
    private LogMonitoring() {}

    /**
     * One check.
     *
     * @param result what the monitor found
     * @param kept where this home keeps the log's last checkpoint
     * @param before the checkpoint seen last time, if any
     * @param anchored the check of the current checkpoint's time-stamp, if the log serves one
     */
    public record Outcome(LogMonitor.Result result, Path kept, Optional<byte[]> before, Optional<TokenVerifier.Result> anchored) {
        /** Validates the fields. */
        public Outcome {
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(kept, "kept");
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(anchored, "anchored");
        }

        /** Whether the time-stamp served covers something else than the current checkpoint. */
        public boolean badTimestamp() {
            return anchored.isPresent() && anchored.get().kind() == TokenVerifier.Kind.INVALID;
        }
    }

    /**
     * The log's base URL as {@code log monitor} is given it.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if it is not an http or https URL
     */
    public static URI logUrl(String url) {
        URI base;
        try {
            base = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "not a URL: " + SafeText.escape(url));
        }
        if (base.getScheme() == null || base.getHost() == null) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "not an http or https URL: " + SafeText.escape(url));
        }
        return base;
    }

    /**
     * Checks the log at {@code base} signed by {@code key}; when it is sound (and its time-stamp, if any,
     * covers it), keeps its current checkpoint for the next check. A checkpoint seen before stays kept
     * when the log shrank, forked or changed an entry.
     *
     * @param home the ProofMode home
     * @param http the client (the home's proxy)
     * @param base the evidence server's base URL
     * @param key the log's verifier key
     * @param tsaTrust time-stamp roots to trust besides the home's
     * @return what was found
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if the log cannot be read
     */
    public static Outcome check(Path home, Http http, URI base, NoteKey key, List<Path> tsaTrust) {
        Path kept = Home.LOG_MONITOR.in(home).resolve(
                Digests.sha256Hex(key.verifierKey().getBytes(StandardCharsets.UTF_8)).substring(0, 16) + ".checkpoint");
        Optional<byte[]> before = Files.isRegularFile(kept)
                ? Optional.of(InputFiles.read(kept, SignedNote.MAX_BYTES, "kept checkpoint")) : Optional.empty();
        List<X509Certificate> roots = new ArrayList<>(TrustedRoots.inHome(home));
        for (Path t : tsaTrust) {
            roots.addAll(TrustedRoots.read(t));
        }
        LogMonitor.Result r = new LogMonitor(http, base, key).check(before);
        Optional<TokenVerifier.Result> anchored = r.ok() ? anchored(http, base, r, roots) : Optional.empty();
        Outcome o = new Outcome(r, kept, before, anchored);
        if (r.ok() && !o.badTimestamp()) {
            try {
                AtomicFiles.ownerOnlyDirectory(kept.getParent());
                AtomicFiles.write(kept, r.currentNote(), true, true);
            } catch (java.io.IOException e) {
                throw new ProofModeException(Failure.IO, "cannot keep the checkpoint in " + kept + ": " + e.getMessage(), e);
            }
        }
        return o;
    }

    /** The check of the current checkpoint's time-stamp, if the log serves one. */
    private static Optional<TokenVerifier.Result> anchored(Http http, URI base, LogMonitor.Result r, List<X509Certificate> roots) {
        long size = r.current().orElseThrow().size();
        String b = base.toString();
        Http.Response t = http.get(URI.create((b.endsWith("/") ? b : b + "/") + "log/timestamp/" + size), "application/timestamp-reply",
                TsaToken.MAX_BYTES);
        if (t.status() == 404) {
            return Optional.empty();
        }
        if (t.status() != 200) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, base + ": log/timestamp/" + size + ": HTTP " + t.status());
        }
        byte[] text = SignedNote.text(new String(r.currentNote(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        return Optional.of(new TokenVerifier(roots).verify(t.body(), List.of(new TokenVerifier.Candidate("the checkpoint of "
                + size + " entries", Optional.of(text), Digests.newSha256().digest(text)))));
    }
}
