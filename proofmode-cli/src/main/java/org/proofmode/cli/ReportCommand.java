// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.i18n.Language;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.report.Reporting;
import org.proofmode.util.SafeText;
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

    @Option(names = "--integrity-roots", paramLabel = "ROOTS.pem", description = "Check device attestations (<h>.gst, "
            + "<h>.attest.pem) against these roots only, as for verify.")
    Path integrityRoots;

    @Option(names = "--attestation-status", paramLabel = "FILE", description = "Google's saved list of revoked key "
            + "attestation certificates, as for verify.")
    Path attestationStatus;

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
        paths = paths.stream().map(shown::open).toList();
        Optional<Instant> given = parseDate(date);
        Optional<String> named = Optional.ofNullable(caseName);
        Path out = output != null ? shown.open(output) : ctx.resolve(Path.of(Reporting.defaultFileName(named, paths.get(0), format == Format.pdf)));
        Reporting.Request request = new Reporting.Request(paths, named, format == Format.pdf, given, out, !noSign, force,
                Language.chosen(lang, ctx.env()));
        ProofMode pm = root.proofMode();
        DeviceKeys keys = pm.keys();
        Reporting.check(request, keys);
        Reporting reporting = new Reporting(pm.verifier(TrustArguments.withIntegrity(
                TrustArguments.trust(ctx, shown, trust, tsaTrust, c2paTrust, logKeys), shown, integrityRoots, attestationStatus)),
                pm.storedProofs(() -> StoreAccess.reading(ctx, pm, unlock.passphraseFile).store()), keys, ReportCommand.class);
        Reporting.Written written;
        try (Identities ids = Age.readIdentities(identityFiles.stream().map(shown::open).toList())) {
            written = reporting.write(request, ids, () -> {
                try (Passphrase pass = Passphrases.unlocking(ctx, unlock.passphraseFile, unlock.pinFile, keys)) {
                    return keys.unlock(pass);
                }
            }, shown::show);
        }
        ctx.out().println(shown.show(SafeText.escape(written.report().toString())));
        if (written.signature().isPresent()) {
            ctx.out().println(shown.show(SafeText.escape(written.signature().get().toString())));
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
}
