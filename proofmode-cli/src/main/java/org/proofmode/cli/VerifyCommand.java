package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.internal.InputFiles;
import org.proofmode.Failure;
import org.proofmode.ProofMode;
import org.proofmode.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.verify.RedactionOriginal;
import org.proofmode.verify.C2paChecks;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode verify}: check proofs. */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Check proofs: share bundles, proof folders, or proved media files.",
            "",
            "PATH is a share bundle (.zip, ours or the ProofMode app's), a proof folder, or a media file "
                + "whose proof is in the store. Every check runs and is printed with a stable code; the "
                + "verdict comes first: INVALID (a check failed), VALID (intact, but the signer is not a "
                + "trusted key) or TRUSTED (intact and signed by one of your device keys or a --trust key).",
            "",
            "Content credentials (C2PA) embedded in a JPEG, PNG or MP4 are checked too, with the specification's "
                + "status codes prefixed c2pa. (c2pa.claimSignature.validated, c2pa.assertion.dataHash.mismatch, ...); "
                + "media inside a bundle (and --media) are checked too; "
                + "a media file with content credentials but no proof in the store is verified by them alone.",
            "",
            "Timestamps are checked too: an RFC 3161 token (.tsr) must cover the media signature and chain to a "
                + "trusted time-stamp root (--tsa-trust); an OpenTimestamps proof (.ots) must commit to the media "
                + "signature or the media, and is shown pending or with its Bitcoin block and merkle root.",
            "",
            "A redacted copy (proofmode redact) carries a signed redaction record: verify reports it as derived by "
                + "redaction (redaction.record.valid, redaction.signature.valid). With --original it also checks the "
                + "original (redaction.original.match, redaction.original.proofValid) and the pixels "
                + "(redaction.outside.unchanged, redaction.inside.changed).",
            ""},
        footer = {"", "Examples:", "  proofmode verify share.zip", "  proofmode verify --json IMG_0001.jpg",
            "  proofmode verify --original IMG_0001.jpg IMG_0001-redacted.jpg   a redacted copy against its original",
            "  proofmode verify --trust alice.asc --require-trusted share.zip",
            "  proofmode verify --c2pa-trust newsroom-ca.pem photo.jpg", "", ExitCodes.HELP_TABLE})
final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--json", description = "Print the report as JSON (the server's format).")
    boolean json;

    @Option(names = "--trust", paramLabel = "KEY.asc", description = "Trust this public key (repeatable). Your device keys are always trusted.")
    List<Path> trust = new ArrayList<>();

    @Option(names = "--require-trusted", description = "Exit 43 unless every proof is signed by a trusted key.")
    boolean requireTrusted;

    @Option(names = "--tsa-trust", paramLabel = "CA.pem", description = "Trust this time-stamp root (repeatable), besides PROOFMODE_HOME/tsa-roots/*.pem. "
            + "A token from an authority that does not chain to one is reported timestamp.rfc3161.untrusted.")
    List<Path> tsaTrust = new ArrayList<>();

    @Option(names = "--c2pa-trust", paramLabel = "ANCHORS.pem", description = "Trust these C2PA signing roots (repeatable), "
            + "besides this home's own C2PA CA (PROOFMODE_HOME/c2pa/ca.pem). Content credentials whose signer does not "
            + "chain to one are reported c2pa.signingCredential.untrusted (a warning).")
    List<Path> c2paTrust = new ArrayList<>();

    @Option(names = "--media", paramLabel = "FILE", description = "The media file, when the bundle or folder does not hold it.")
    Path media;

    @Option(names = "--original", paramLabel = "ORIG", description = "For a redacted copy: its original (a media file, "
            + "whose proof is looked up in the store, or a share bundle holding it with its proof). Checks that it is the "
            + "original the redaction record names, that its proof is valid, and that every pixel outside the regions is "
            + "unchanged (exactly for a PNG copy, within re-encoding tolerance for a JPEG copy).")
    Path original;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Bundles (.zip), proof folders or proved media files.")
    List<Path> paths;

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        ProofMode pm = root.proofMode();
        List<PGPPublicKeyRing> trusted = new ArrayList<>();
        for (Path t : trust) {
            if (!Files.exists(t)) {
                throw new ProofModeException(Failure.INPUT_MISSING, t + ": no such key file");
            }
            trusted.addAll(OpenPgpKeys.readCertificates(InputFiles.read(t, InputFiles.KEY_BYTES, "key file"), t.toString()));
        }
        if (media != null) {
            InputFiles.requireRegular(media, "media file");
        }
        if (original != null && !Files.exists(original)) {
            throw new ProofModeException(Failure.INPUT_MISSING, original + ": no such file or folder");
        }
        if (original != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--original goes with a single PATH");
        }
        if (media != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--media goes with a single PATH");
        }
        List<java.security.cert.X509Certificate> tsaRoots = new ArrayList<>();
        for (Path t : tsaTrust) {
            tsaRoots.addAll(TrustedRoots.read(t));
        }
        List<java.security.cert.X509Certificate> anchors = new ArrayList<>();
        for (Path t : c2paTrust) {
            anchors.addAll(TrustedRoots.read(t));
        }
        Verifier verifier = pm.verifier(trusted, tsaRoots, anchors);
        C2paChecks c2pa = pm.c2paChecks(anchors, tsaRoots);
        List<VerificationReport> reports = new ArrayList<>();
        int error = ExitCodes.OK;
        for (Path p : paths) {
            try {
                VerificationReport r = verifyOne(pm, verifier, c2pa, p);
                reports.add(r);
                if (!json) {
                    ReportPrinter.print(ctx.out(), r);
                }
            } catch (ProofModeException e) {
                ctx.err().println("proofmode: " + e.getMessage());
                if (error == ExitCodes.OK) {
                    error = ExitCodes.of(e.failure());
                }
            }
        }
        Verdict overall = reports.stream().map(VerificationReport::verdict).reduce(Verdict.TRUSTED, Verdict::and);
        if (json && !reports.isEmpty()) {
            ctx.out().print(reports.size() == 1 && paths.size() == 1 ? ReportJson.write(reports.get(0)) : ReportJson.write(reports, overall));
        }
        if (error != ExitCodes.OK) {
            return error;
        }
        if (overall == Verdict.INVALID) {
            return ExitCodes.INVALID;
        }
        if (requireTrusted && overall != Verdict.TRUSTED) {
            ctx.err().println("proofmode: valid, but not signed by a trusted key (--require-trusted)");
            return ExitCodes.UNTRUSTED;
        }
        return ExitCodes.OK;
    }

    private VerificationReport verifyOne(ProofMode pm, Verifier verifier, C2paChecks c2pa, Path p) throws IOException {
        if (!Files.exists(p)) {
            throw new ProofModeException(Failure.INPUT_MISSING, p + ": no such file or folder");
        }
        Optional<RedactionOriginal> orig = Optional.empty();
        if (original != null) {
            boolean bundle = Files.isDirectory(original) || MediaSniffer.sniff(original).isEmpty();
            orig = Optional.of(new RedactionOriginal(original, bundle ? Optional.empty() : pm.store().find(Digests.sha256(original))));
        }
        if (Files.isDirectory(p) || MediaSniffer.sniff(p).isEmpty()) {
            // The verifier checks the content credentials of the bundle's media and of --media.
            return verifier.verify(p, Optional.ofNullable(media), orig);
        }
        String sha = Digests.sha256(p);
        Optional<Path> folder = pm.store().find(sha);
        if (folder.isEmpty()) {
            return c2pa.alone(p).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                    p + ": no proof of this file (SHA-256 " + sha + ") in " + pm.store().root()
                            + " and no content credentials in it; verify its bundle or proof folder instead"));
        }
        return verifier.verify(folder.get(), Optional.of(p), orig);
    }
}
