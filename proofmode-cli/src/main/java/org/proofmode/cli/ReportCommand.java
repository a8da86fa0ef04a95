// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.proofmode.ProofMode;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.i18n.Language;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.report.Certification;
import org.proofmode.report.HtmlReport;
import org.proofmode.report.PdfReport;
import org.proofmode.report.ReportBuilder;
import org.proofmode.report.ReportDocument;
import org.proofmode.report.ReportItem;
import org.proofmode.sign.StreamSigner;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Check;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode report}: a verification as a document for people, signed by this installation. */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Write a verification report that an editor, a lawyer or a court can read: a PDF (PDF/A-2b, tagged, searchable) "
                + "or one self-contained HTML page.",
            "",
            "Each BUNDLE (a share .zip, ours or the ProofMode app's, a proof folder, or a proved media file, whose stored proof is "
                + "found as 'proofmode verify FILE' finds it) is verified exactly as 'proofmode verify' "
                + "does, and the report shows: the verdict in plain words first (for INVALID, which checks failed; for proofs "
                + "signed by this installation's own key, that this is not an independent check); a thumbnail of an image, key frames of a video; the SHA-256 and content "
                + "hashes; the signer, its fingerprint and how it is trusted; every check with its stable code and what it means; "
                + "the capture context with the recorded place on a map (drawn from the bundled Natural Earth outline, nothing "
                + "fetched); time stamps and transparency-log receipts; 'Check it yourself': the exact sha256sum, gpg, sqv, openssl "
                + "and ots commands that redo the checks in the folder where the bundle was unpacked; and a certification page to "
                + "complete and sign by hand.",
            "",
            "A file name is given in a command only when it is printable ASCII (quoted for the shell); a media file with any "
                + "other name (other scripts, look-alike quotes, bidirectional or zero-width characters) is first renamed by a "
                + "command that finds it by its SHA-256, and a note names the characters replaced. Names and notes in any script "
                + "are drawn with the system's Noto, Droid Sans Fallback and Symbola fonts; a character no font has shows as [U+XXXX].",
            "",
            "The report is signed with this installation's device key: a detached signature FILE.asc beside it, checked like a "
                + "proof (gpg --verify FILE.asc FILE). Without a device key, --no-sign writes it unsigned.",
            "",
            "Reproducible: the same bundles, options and --date give the same bytes (and the same signature). Without --date the "
                + "report is dated, and signed, when it is made.",
            "",
            "The report is written even when a bundle is INVALID (the report says so, first); the exit code says whether it was "
                + "written.",
            ""},
        footer = {"", "Examples:", "  proofmode report share.zip                      writes share.report.pdf and share.report.pdf.asc",
            "  proofmode report --format html -o desk.html share.zip",
            "  proofmode report --case 'Market fire 2026-03' --date 2026-03-14T09:00:00Z -o case.pdf a.zip b.zip c.zip",
            "  proofmode report --no-sign --trust alice.asc share.zip",
            "  proofmode report IMG_0001.jpg                    a proved photo: the report of its stored proof", "", ExitCodes.HELP_TABLE})
final class ReportCommand implements Callable<Integer> {
    /** The document formats. */
    enum Format {
        pdf, html
    }

    @ParentCommand
    Main root;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "pdf", description = "pdf (default) or html.")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Where to write the report (default: NAME.report.pdf "
            + "or .html in the current folder, NAME being the bundle's or the case's). Never overwritten without --force.")
    Path output;

    @Option(names = "--case", paramLabel = "NAME", description = "One report for all the BUNDLEs, under this case name.")
    String caseName;

    @Option(names = "--date", paramLabel = "ISO-8601", description = "The report's date, e.g. 2026-03-14T09:00:00Z: printed on it, "
            + "in its metadata and its signature, for the same bytes again. Default: now, when it is made.")
    String date;

    @Option(names = "--lang", paramLabel = "LANG", description = "The language of the report's own sentences: en, es, fr, ar, uk, "
            + "zh-Hans (default: from LC_ALL, LC_MESSAGES or LANG, else English). Hashes, codes, names and commands are unchanged.")
    Optional<String> lang = Optional.empty();

    @Option(names = "--no-sign", description = "Do not sign the report (for an installation with no device key).")
    boolean noSign;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--force", description = "Overwrite the report and its signature if they exist.")
    boolean force;

    @Option(names = "--trust", paramLabel = "KEY.asc", description = "Trust this public key (repeatable), as for verify.")
    List<Path> trust = new ArrayList<>();

    @Option(names = "--tsa-trust", paramLabel = "CA.pem", description = "Trust this time-stamp root (repeatable), as for verify.")
    List<Path> tsaTrust = new ArrayList<>();

    @Option(names = "--c2pa-trust", paramLabel = "ANCHORS.pem", description = "Trust these C2PA signing roots (repeatable), as for verify.")
    List<Path> c2paTrust = new ArrayList<>();

    @Option(names = "--log-key", paramLabel = "KEY", description = "Trust this transparency log (repeatable), as for verify.")
    List<String> logKeys = new ArrayList<>();

    @Option(names = "--identity", paramLabel = "FILE", description = "An age identity file that opens bundles encrypted "
            + "to it (repeatable), as for verify.")
    List<Path> identityFiles = new ArrayList<>();

    @Parameters(paramLabel = "BUNDLE", arity = "1..*", description = "Share bundles (.zip, or .zip.age with --identity), proof folders, "
            + "or proved media files (their stored proofs).")
    List<Path> paths;

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        ShownPaths shown = new ShownPaths(ctx);
        try {
            return report(ctx, shown);
        } catch (ProofModeException e) {
            throw new ProofModeException(e.failure(), shown.show(e.getMessage()), e);
        }
    }

    private int report(CliContext ctx, ShownPaths shown) throws IOException {
        Language language = Language.chosen(lang, ctx.env());
        trust = trust.stream().map(shown::open).toList();
        tsaTrust = tsaTrust.stream().map(shown::open).toList();
        c2paTrust = c2paTrust.stream().map(shown::open).toList();
        paths = paths.stream().map(shown::open).toList();
        identityFiles = identityFiles.stream().map(shown::open).toList();
        Optional<Instant> given = parseDate(date);
        if (paths.size() > 1 && caseName == null) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "several BUNDLEs make one report: name the case with --case NAME");
        }
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new ProofModeException(Failure.INPUT_MISSING, p + ": no such file or folder");
            }
        }
        String base = caseName != null ? caseName : fileBase(paths.get(0));
        Path out = output != null ? shown.open(output) : ctx.resolve(Path.of(safeFileName(base) + ".report." + format.name()));
        Path sig = out.resolveSibling(out.getFileName() + ".asc");
        for (Path p : noSign ? List.of(out) : List.of(out, sig)) {
            if (Files.exists(p) && !force) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, p + " exists (use --force)");
            }
        }
        ProofMode pm = root.proofMode();
        DeviceKeys keys = pm.keys();
        if (!noSign && !keys.exists()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no device key to sign the report with: create one "
                    + "(proofmode keys create) or write it unsigned with --no-sign");
        }
        Verifier verifier = VerifyCommand.verifier(ctx, pm, trust, tsaTrust, c2paTrust, logKeys);
        List<ReportItem> items = new ArrayList<>();
        ProofMode stored = null; // the store, read with its identity when encrypted: unlocked once, for the first media file
        try (Identities ids = Age.readIdentities(identityFiles)) {
            for (Path p : paths) {
                boolean media = !Files.isDirectory(p) && !Age.isAge(p) && MediaSniffer.sniff(p).isPresent();
                if (media && stored == null) {
                    stored = pm.store().isEncrypted() ? StoreAccess.reading(ctx, pm, unlock.passphraseFile) : pm;
                }
                try (Bundle bundle = media ? storedProof(stored, p) : Bundle.open(p, BundleLimits.DEFAULT, ids)) {
                    // A report is for others to read: the paths in it are the ones typed, not where this machine keeps them.
                    VerificationReport r = typed(verifier.verify(bundle, media ? Optional.of(p) : Optional.empty()), shown::show);
                    items.add(ReportItem.of(p.getFileName().toString(), r, bundle));
                }
            }
        }
        // Dated when it is made (or by --date, for the same bytes again), never by the proofs' own times.
        Optional<Instant> when = Optional.of(given.orElseGet(Instant::now));
        Optional<String> whenText = when.map(t -> t.truncatedTo(ChronoUnit.SECONDS).toString());
        Optional<SigningKey> key = Optional.empty();
        if (!noSign) {
            try (Passphrase pass = Passphrases.unlocking(ctx, unlock.passphraseFile, unlock.pinFile, keys)) {
                key = Optional.of(keys.unlock(pass));
            }
        }
        Certification cert = Certification.of("proofmode", ReportCommand.class, whenText, key.map(k -> k.info().fingerprint()));
        Set<String> own = keys.exists() ? keys.allCertificates().stream().map(c -> OpenPgpKeys.describe(c).fingerprint())
                .collect(Collectors.toUnmodifiableSet()) : Set.of();
        ReportDocument doc = ReportBuilder.build(items, Optional.ofNullable(caseName), cert, Optional.of(out.getFileName().toString()), own, language);
        byte[] bytes = format == Format.pdf ? PdfReport.render(doc) : HtmlReport.render(doc).getBytes(StandardCharsets.UTF_8);
        AtomicFiles.write(out, bytes, force, false);
        ctx.out().println(shown.show(SafeText.escape(out.toString())));
        if (key.isPresent()) {
            // Signed when the report is dated, but never before the key existed: a signature older than its key is refused.
            Instant created = key.get().signingPublicKey().getCreationTime().toInstant();
            Instant signed = when.filter(t -> !t.isBefore(created)).orElse(created);
            String armored = StreamSigner.sign(key.get(), bytes, signed).armoredSignature();
            AtomicFiles.write(sig, armored.getBytes(StandardCharsets.US_ASCII), force, false);
            ctx.out().println(shown.show(SafeText.escape(sig.toString())));
        } else {
            ctx.err().println("proofmode: the report is not signed (--no-sign)");
        }
        ctx.out().flush();
        return ExitCodes.OK;
    }

    private static Optional<Instant> parseDate(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--date " + SafeText.escape(text)
                    + ": not an ISO-8601 UTC time such as 2026-03-14T09:00:00Z");
        }
    }

    /** The report with every path as this command opened it written as the user typed it. */
    private static VerificationReport typed(VerificationReport r, UnaryOperator<String> show) {
        return new VerificationReport(show.apply(r.source()), r.verdict(), typed(r.checks(), show), r.proofs().stream()
                .map(p -> new ProofReport(p.id(), p.sha256(), p.media().map(show), p.verdict(), typed(p.checks(), show), p.signer(),
                        p.record(), p.times()))
                .toList());
    }

    private static List<Check> typed(List<Check> checks, UnaryOperator<String> show) {
        return checks.stream().map(c -> new Check(c.code(), c.status(), show.apply(c.subject()), show.apply(c.message()))).toList();
    }

    /** The stored proof of a media file, found by its SHA-256 as {@code verify FILE} finds it, in a store {@code pm} can read. */
    private static Bundle storedProof(ProofMode pm, Path media) throws IOException {
        String sha = Digests.sha256(media);
        if (pm.store().isEncrypted()) {
            Optional<Bundle> sealed = pm.store().bundle(sha, BundleLimits.DEFAULT);
            if (sealed.isPresent()) {
                return sealed.get();
            }
        } else {
            Optional<Path> folder = pm.store().find(sha);
            if (folder.isPresent()) {
                return Bundle.open(folder.get(), BundleLimits.DEFAULT);
            }
        }
        throw new ProofModeException(Failure.INPUT_MISSING, media + ": no proof of this file (SHA-256 " + sha + ") in "
                + pm.store().root() + "; report on its share bundle or proof folder instead");
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
