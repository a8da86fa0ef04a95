// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paStatus;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Turns the content credentials (C2PA manifest) of a media file into verification checks:
 * {@code c2pa.<spec status code>}. A file without a manifest gets no checks. A status about an
 * ingredient's manifest names that manifest in its subject: {@code photo.jpg (ingredient manifest LABEL)}.
 *
 * <p>A broken manifest (bad signature, changed bytes, changed assertion) makes the report
 * {@link Verdict#INVALID}; an untrusted signing certificate is a warning. A hard binding that was not
 * checked ({@code c2pa.assertion.hardBinding.unchecked}) is a warning that makes the report
 * {@link Verdict#INCOMPLETE}, never valid.
 */
public final class C2paChecks {
    private final C2paReader reader;

    /** Creates the checks over a reader (with its trust anchors). */
    public C2paChecks(C2paReader reader) {
        this.reader = reader;
    }

    /**
     * The checks of one media file, and the verdict of its manifest alone.
     *
     * @param checks the checks, empty if the file has no manifest
     * @param verdict the manifest's verdict, empty if there is none
     * @param proofModeSigner the OpenPGP fingerprint the manifest binds, if any
     */
    public record Result(List<Check> checks, Optional<Verdict> verdict, Optional<String> proofModeSigner) {
        /** Copies the checks. */
        public Result {
            checks = List.copyOf(checks);
        }
    }

    /**
     * Reads the manifest of a media file.
     *
     * @throws ProofModeException with {@link Failure#IO} if the file cannot be read
     */
    public Result of(Path media) {
        try {
            return result(reader.read(media), media.getFileName().toString());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, media + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the manifest of a media entry of a bundle, streamed under the bundle's limits (an entry is
     * read again from its start when the reader goes back).
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the entry cannot be read or exceeds the
     *     bundle's limits
     */
    public Result of(BundleEntry media) {
        try {
            long size = media.size();
            if (size < 0) {
                try (InputStream in = media.open()) {
                    size = in.transferTo(OutputStream.nullOutputStream());
                }
            }
            return result(reader.read(size, media::open), media.name());
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, media.name() + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    private static Result result(Optional<C2paReport> r, String subject) {
        if (r.isEmpty()) {
            return new Result(List.of(), Optional.empty(), Optional.empty());
        }
        C2paReport report = r.get();
        List<Check> out = new ArrayList<>();
        out.add(new Check(CheckCodes.C2PA_MANIFEST_PRESENT, Status.INFO, subject, "content credentials by "
                + report.generator() + report.signer().map(s -> ", signed by " + s).orElse("")
                + report.signedAt().map(t -> ", time-stamped " + t).orElse("")
                + (report.identities().isEmpty() ? "" : ", identity " + String.join("; ", report.identities()))
                + " (" + report.state() + ")"));
        if (report.chain().size() > 1) {
            int n = 1;
            for (C2paReport.Link l : report.chain()) {
                out.add(new Check(CheckCodes.C2PA_CHAIN_MANIFEST, Status.INFO, subject, "manifest " + n++ + " of " + report.chain().size()
                        + (l.label().equals(report.activeManifest()) ? " (active) " : " ") + l.label() + ": " + l.generator()
                        + l.signer().map(x -> ", signed by " + x).orElse("") + ": " + (!l.validated() ? "not validated (no ingredient names it)"
                                : l.failures().isEmpty() ? "valid" : "invalid (" + String.join(", ", l.failures()) + ")")
                        + (l.recorded().isEmpty() ? "" : "; found invalid when it was used (" + String.join(", ", l.recorded())
                                + ", recorded in its ingredient)")));
            }
        }
        for (C2paStatus s : report.statuses()) {
            String about = s.manifest().filter(l -> !l.equals(report.activeManifest()))
                    .map(l -> subject + " (ingredient manifest " + l + ")").orElse(subject);
            out.add(new Check(CheckCodes.c2pa(s.code()), status(s), about, s.explanation()));
        }
        Verdict v = switch (report.state()) {
            case INVALID -> Verdict.INVALID;
            case INCOMPLETE -> Verdict.INCOMPLETE;
            case VALID -> Verdict.VALID;
            case TRUSTED -> Verdict.TRUSTED;
        };
        return new Result(out, Optional.of(v), report.proofModeSigner());
    }

    /** Adds the media's C2PA checks to a report; an invalid manifest makes the report invalid. */
    public VerificationReport addTo(VerificationReport report, Path media) {
        return addTo(report, of(media), media.getFileName().toString());
    }

    /** Adds the C2PA checks of a media entry of a bundle to its report; see {@link #addTo(VerificationReport, Path)}. */
    public VerificationReport addTo(VerificationReport report, BundleEntry media) {
        return addTo(report, of(media), media.name());
    }

    private static VerificationReport addTo(VerificationReport report, Result r, String subject) {
        if (r.checks().isEmpty()) {
            return report;
        }
        List<Check> checks = new ArrayList<>(report.checks());
        checks.addAll(r.checks());
        r.proofModeSigner().ifPresent(bound -> report.proofs().stream().flatMap(p -> p.signer().stream()).findFirst()
                .ifPresent(s -> checks.add(bound.equalsIgnoreCase(s.fingerprint())
                        ? new Check(CheckCodes.C2PA_PROOFMODE_SIGNER_MATCH, Status.PASS, subject,
                                "the content credentials name the OpenPGP key that signed the proof, " + bound)
                        : new Check(CheckCodes.C2PA_PROOFMODE_SIGNER_MISMATCH, Status.WARN, subject,
                                "the content credentials name OpenPGP key " + bound + ", the proof was signed by "
                                        + s.fingerprint()))));
        Verdict v = r.verdict().filter(x -> x == Verdict.INVALID || x == Verdict.INCOMPLETE).map(report.verdict()::and)
                .orElse(report.verdict());
        return new VerificationReport(report.source(), v, checks, report.proofs());
    }

    /** A report of the content credentials alone, for a media file that has no proof in the store. */
    public Optional<VerificationReport> alone(Path media) {
        Result r = of(media);
        return r.verdict().map(v -> new VerificationReport(media.toString(), v, r.checks(), List.of()));
    }

    private static Status status(C2paStatus s) {
        if (s.code().equals(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED) || s.code().equals(C2paStatus.Codes.HARD_BINDING_UNCHECKED)
                || s.code().equals(C2paStatus.Codes.CAWG_X509_CREDENTIAL_UNTRUSTED)) {
            return Status.WARN;
        }
        return switch (s.outcome()) {
            case SUCCESS -> Status.PASS;
            case FAILURE -> Status.FAIL;
            case INFORMATIONAL -> Status.INFO;
        };
    }
}
