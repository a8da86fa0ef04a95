// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.i18n.Language;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.sign.StreamSigner;
import org.proofmode.util.AtomicFiles;
import org.proofmode.verify.Check;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Targets;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * The use case of {@code proofmode report}: each bundle, proof folder or proved media file verified, the
 * document made of their reports, written as PDF or HTML, and signed with the device key (a detached
 * {@code FILE.asc}).
 */
public final class Reporting {
    /**
     * What to report on, and where.
     *
     * @param paths share bundles ({@code .zip}, {@code .zip.age}), proof folders or proved media files
     * @param caseName the case all of them make one report for (needed for several)
     * @param pdf a PDF, else one HTML page
     * @param date the report's date (for the same bytes again); absent: when it is made
     * @param output the report file; its signature is {@link #signatureOf} it
     * @param signed whether it is signed (then {@code key} of {@link #write} gives the device key)
     * @param force whether the report and its signature may be overwritten
     * @param language the language of the report's own sentences
     */
    public record Request(List<Path> paths, Optional<String> caseName, boolean pdf, Optional<Instant> date, Path output,
            boolean signed, boolean force, Language language) {
        /** Validates the fields. */
        public Request {
            paths = List.copyOf(paths);
            Objects.requireNonNull(caseName, "caseName");
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(language, "language");
        }
    }

    /** The files written: the report and, when signed, its signature. */
    public record Written(Path report, Optional<Path> signature) {}

    private final Verifier verifier;
    private final Targets.Stored stored;
    private final DeviceKeys keys;
    private final Class<?> program;

    /**
     * @param verifier the verifier, with what is trusted
     * @param stored where the proofs of media files are
     * @param keys the device keys (its certificates are this installation's own keys, named so in the report)
     * @param program a class of the program that makes the report, for its certification
     */
    public Reporting(Verifier verifier, Targets.Stored stored, DeviceKeys keys, Class<?> program) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.stored = Objects.requireNonNull(stored, "stored");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.program = Objects.requireNonNull(program, "program");
    }

    /**
     * Refuses what cannot make a report before anything is verified: several paths without a case, a path
     * that does not exist, a report or signature that exists (without force), signing without a device key.
     *
     * @throws ProofModeException with {@link Failure#INCOMPATIBLE_OPTIONS}, {@link Failure#INPUT_MISSING} or
     *     {@link Failure#OUTPUT_EXISTS}
     */
    public static void check(Request r, DeviceKeys keys) {
        if (r.paths().size() > 1 && r.caseName().isEmpty()) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "several BUNDLEs make one report: name the case with --case NAME");
        }
        for (Path p : r.paths()) {
            if (!Files.exists(p)) {
                throw new ProofModeException(Failure.INPUT_MISSING, p + ": no such file or folder");
            }
        }
        for (Path p : r.signed() ? List.of(r.output(), signatureOf(r.output())) : List.of(r.output())) {
            if (Files.exists(p) && !r.force()) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, p + " exists (use --force)");
            }
        }
        if (r.signed() && !keys.exists()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no device key to sign the report with: create one "
                    + "(proofmode keys create) or write it unsigned with --no-sign");
        }
    }

    /**
     * Verifies every path, then writes the report and, when signed, its signature.
     *
     * @param identities the age identities that open encrypted bundles
     * @param key gives the unlocked device key, asked for once everything is verified
     * @param show turns each path in the reports (as this machine opened it) into the one the user typed
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for a media file with no stored proof, as
     *     the verifier and {@link Bundle#open} throw, and with {@link Failure#IO} if a file cannot be written
     */
    public Written write(Request r, Identities identities, Supplier<SigningKey> key, UnaryOperator<String> show) throws IOException {
        List<ReportItem> items = new ArrayList<>();
        for (Path p : r.paths()) {
            if (Verifier.isCollection(p)) {
                // A collection (proofmode collect): its checks name the page, the time and the TLS subject.
                items.add(new ReportItem(p.getFileName().toString(), typed(verifier.verifyCollection(p), show), List.of(), Map.of(), List.of()));
                continue;
            }
            boolean media = !Files.isDirectory(p) && !Age.isAge(p) && MediaSniffer.sniff(p).isPresent();
            try (Bundle bundle = media ? storedProof(p) : Bundle.open(p, BundleLimits.DEFAULT, identities)) {
                // A report is for others to read: the paths in it are the ones typed, not where this machine keeps them.
                VerificationReport v = typed(verifier.verify(bundle, media ? Optional.of(p) : Optional.empty()), show);
                items.add(ReportItem.of(p.getFileName().toString(), v, bundle, r.language()));
            }
        }
        // Dated when it is made (or by the given date, for the same bytes again), never by the proofs' own times.
        Instant when = r.date().orElseGet(Instant::now);
        Optional<SigningKey> signer = r.signed() ? Optional.of(key.get()) : Optional.empty();
        Certification cert = Certification.of("proofmode", program, Optional.of(when.truncatedTo(ChronoUnit.SECONDS).toString()),
                signer.map(k -> k.info().fingerprint()));
        Set<String> own = keys.exists() ? keys.allCertificates().stream().map(c -> OpenPgpKeys.describe(c).fingerprint())
                .collect(Collectors.toUnmodifiableSet()) : Set.of();
        Path out = r.output();
        ReportDocument doc = ReportBuilder.build(items, r.caseName(), cert, Optional.of(out.getFileName().toString()), own, r.language());
        byte[] bytes = r.pdf() ? PdfReport.render(doc) : HtmlReport.render(doc).getBytes(StandardCharsets.UTF_8);
        AtomicFiles.write(out, bytes, r.force(), false);
        if (signer.isEmpty()) {
            return new Written(out, Optional.empty());
        }
        // Signed when the report is dated, but never before the key existed: a signature older than its key is refused.
        Instant created = signer.get().signingPublicKey().getCreationTime().toInstant();
        Instant signed = when.isBefore(created) ? created : when;
        String armored = StreamSigner.sign(signer.get(), bytes, signed).armoredSignature();
        Path sig = signatureOf(out);
        AtomicFiles.write(sig, armored.getBytes(StandardCharsets.US_ASCII), r.force(), false);
        return new Written(out, Optional.of(sig));
    }

    /** The detached signature beside a report: {@code FILE.asc}. */
    public static Path signatureOf(Path report) {
        return report.resolveSibling(report.getFileName() + ".asc");
    }

    /**
     * The report's file name when none is given: {@code NAME.report.pdf} (or {@code .html}), NAME being the
     * case's, else the first bundle's without its {@code .zip}, made of letters, digits, dot, dash and underscore.
     */
    public static String defaultFileName(Optional<String> caseName, Path first, boolean pdf) {
        return safeFileName(caseName.orElseGet(() -> fileBase(first))) + ".report." + (pdf ? "pdf" : "html");
    }

    /** The report with every path as this machine opened it written as the user typed it. */
    private static VerificationReport typed(VerificationReport r, UnaryOperator<String> show) {
        return new VerificationReport(show.apply(r.source()), r.verdict(), typed(r.checks(), show), r.proofs().stream()
                .map(p -> new ProofReport(p.id(), p.sha256(), p.media().map(show), p.verdict(), typed(p.checks(), show), p.signer(),
                        p.record(), p.times()))
                .toList());
    }

    private static List<Check> typed(List<Check> checks, UnaryOperator<String> show) {
        return checks.stream().map(c -> new Check(c.code(), c.status(), show.apply(c.subject()), show.apply(c.message()))).toList();
    }

    /** The stored proof of a media file, found by its SHA-256 as {@code verify FILE} finds it. */
    private Bundle storedProof(Path media) throws IOException {
        String sha = Digests.sha256(media);
        return stored.bundle(sha).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING, media
                + ": no proof of this file (SHA-256 " + sha + ") in " + stored.store().root()
                + "; report on its share bundle or proof folder instead"));
    }

    private static String fileBase(Path p) {
        String n = p.getFileName().toString();
        for (String suffix : List.of(".zip.age", ".zip.gpg", ".zip")) {
            if (n.toLowerCase(Locale.ROOT).endsWith(suffix)) {
                return n.substring(0, n.length() - suffix.length());
            }
        }
        return n;
    }

    /** A name made of letters, digits, dot, dash and underscore, for the default output file. */
    private static String safeFileName(String name) {
        String s = name.replaceAll("[^\\p{L}\\p{N}._-]+", "-").replaceAll("^[.-]+", "");
        return s.isEmpty() ? "report" : s;
    }
}
