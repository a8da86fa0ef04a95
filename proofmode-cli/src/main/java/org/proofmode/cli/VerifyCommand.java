// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.ProofMode;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import org.proofmode.verify.C2paChecks;
import org.proofmode.verify.DeviceIntegrityChecks;
import org.proofmode.verify.RedactionOriginal;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode verify}: check proofs. */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Check proofs: share bundles, proof folders, or proved media files.",
            "",
            "PATH is a share bundle (.zip, ours or the ProofMode app's), a proof folder or an unpacked bundle (a "
                + "folder holding a proof record, <h>.proof.json or .proof.csv), a media file whose proof is in the store "
                + "(the report names the file and the stored proof it found), or any other folder: what is in it. Every check runs and is printed with a stable code; the "
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
            "A transparency-log receipt (<h>.tlog, from an evidence server's GET /api/v1/evidence/SHA256/receipt) beside "
                + "a proof is checked offline: signed by a trusted log (--log-key, PROOFMODE_HOME/log-keys/), its entry in the "
                + "signed tree and naming this proof's media (tlog.inclusion.valid, .invalid, .untrusted) and the key that "
                + "signed it: an entry of the same media signed by other keys is another proof's receipt (tlog.entry.other-proof).",
            "",
            "The ProofMode app's device attestation (<h>.gst, Google SafetyNet) is checked offline: its signature, its "
                + "chain to a trusted root at the attestation's own time (the system's store, or --integrity-roots), its "
                + "certificate named attest.android.com, its nonce naming this proof's media, and the app (integrity.safetynet.valid, "
                + ".signature.invalid, .chain.invalid, .nonce.mismatch; warnings .app.unknown, .device.failed). A Play Integrity "
                + "token cannot be checked offline (integrity.playIntegrity.unverifiable).",
            "",
            "A redacted copy (proofmode redact) carries a signed redaction record: verify reports it as derived by "
                + "redaction (redaction.record.valid, redaction.signature.valid). With --original it also checks the "
                + "original (redaction.original.match, redaction.original.proofValid) and the pixels "
                + "(redaction.outside.unchanged, redaction.inside.changed).",
            "",
            "A bundle encrypted with age (proofmode export --encrypt-to age1…, or age -r) is opened with --identity "
                + "(an age identity file, as age-keygen writes it): it is decrypted into a temporary file only its owner "
                + "can read, deleted when done. Without --identity, or with one it was not encrypted to, verify exits 67.",
            "",
            "A folder that is not itself a bundle stands for everything in it and its subfolders, read as 'proofmode "
                + "prove FOLDER' reads it (hidden files left out): share bundles (.zip, .zip.age) and proof folders are "
                + "verified as bundles, every other media file by its proof in the store (a file changed since it was "
                + "proved is checked against the proof of the file that was at its path, and is INVALID; a file never "
                + "proved is listed unreadable, exit 61), and other files are left out with a notice. So "
                + "'proofmode prove photos && proofmode verify photos' checks each photo. A folder may mix them.",
            "",
            "Many at once: a folder, or several PATHs, is verified on every core (--jobs), with a progress "
                + "bar on a terminal, each report in the order given, and a summary at the end: how many TRUSTED, VALID, "
                + "INVALID and unreadable, and which. The exit code is then that of the first unreadable item if any "
                + "(41, 61, ...), else the worst verdict: 3 if any is INVALID, 43 with --require-trusted if any is only VALID, "
                + "else 0.",
            ""},
        footer = {"", "Examples:", "  proofmode verify share.zip", "  proofmode verify --short intake/   one line per bundle: verdict, name, first failing check",
            "  proofmode verify --passphrase-file pass.txt IMG_0001.jpg   a proof in an encrypted store", "  proofmode verify --json intake/   every bundle in a folder, one JSON line each", "  proofmode verify --json IMG_0001.jpg",
            "  proofmode prove photos && proofmode verify photos   every photo under photos/ by its proof in the store",
            "  proofmode verify --original IMG_0001.jpg IMG_0001-redacted.jpg   a redacted copy against its original",
            "  proofmode verify --trust alice.asc --require-trusted share.zip",
            "  proofmode verify --c2pa-trust newsroom-ca.pem photo.jpg",
            "  proofmode verify --identity desk.key share.zip.age   a bundle encrypted to the desk's age1… recipient",
            "  proofmode verify --log-key desk-log.key share/   with a receipt <h>.tlog in the folder",
            "  proofmode verify --log-key desk-log.key --witnesses witnesses --require-witnesses 2 share.zip", "", ExitCodes.HELP_TABLE})
final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--json", description = "Print the report as JSON (the server's format). With several items "
            + "(a folder of bundles, several PATHs): one report per line (JSON lines), in item order as each is done; "
            + "an item that cannot be read is a line {\"source\", \"error\": {\"exitCode\", \"message\"}}.")
    boolean json;

    @Option(names = {"--short", "--brief"}, description = "One line per item: the verdict, the item, and its first failing check "
            + "(code, subject, message); no summary. The exit code is the same.")
    boolean brief;

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

    @Option(names = "--integrity-roots", paramLabel = "ROOTS.pem", description = "Check the ProofMode app's device "
            + "attestations (<h>.gst, Google SafetyNet) against these roots only, instead of the system's trust store "
            + "(/etc/ssl/certs/ca-certificates.crt or the JDK's cacerts).")
    Path integrityRoots;

    @Option(names = "--log-key", paramLabel = "KEY", description = "Trust this transparency log (repeatable): its verifier key "
            + "(origin+hash+base64, as 'proofmode server log-key' prints it) or a file holding it; besides PROOFMODE_HOME/log-keys/. "
            + "A receipt signed by no trusted log is reported tlog.inclusion.untrusted (a warning).")
    List<String> logKeys = new ArrayList<>();

    @Option(names = "--require-witnesses", paramLabel = "N", description = "Require every proof to carry a receipt whose "
            + "checkpoint, signed by a trusted log, is cosigned validly by at least N trusted witnesses; otherwise "
            + "tlog.witnesses.insufficient and exit 3. Witnesses are trusted by their cosignature keys, given as --log-key, in "
            + "PROOFMODE_HOME/log-keys/, or in a --witnesses file.", defaultValue = "0")
    int requireWitnesses;

    @Option(names = "--witnesses", paramLabel = "FILE", description = "Trust the witnesses of this file: one "
            + "'<cosignature key> <URL>' a line, the file 'proofmode serve --witnesses' reads.")
    Path witnessesFile;

    @Option(names = "--media", paramLabel = "FILE", description = "The media file, when the bundle or folder does not hold it.")
    Path media;

    @Option(names = "--original", paramLabel = "ORIG", description = "For a redacted copy: its original (a media file, "
            + "whose proof is looked up in the store, or a share bundle holding it with its proof). Checks that it is the "
            + "original the redaction record names, that its proof is valid, and that every pixel outside the regions is "
            + "unchanged (exactly for a PNG copy, within re-encoding tolerance for a JPEG copy). For any other proof: "
            + "how its media relate to ORIG, as 'proofmode compare' says (same bytes or content, an excerpt, or different).")
    Path original;

    @Option(names = "--identity", paramLabel = "FILE", description = "An age identity file (AGE-SECRET-KEY-1… lines, as "
            + "age-keygen writes them) that opens bundles encrypted to it (repeatable).")
    List<Path> identityFiles = new ArrayList<>();

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--jobs", paramLabel = "N", description = "Items verified at once when there are several (default: one per core).")
    Integer jobs;

    private Identities identities;
    private Optional<Path> early = Optional.empty();
    private ProofMode readingHome;
    private CompletableFuture<Prehash> earlyHash;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Bundles (.zip), proof folders, proved media files, or folders "
            + "(with no proof record of their own: the .zip bundles, .zip.age ones with --identity, proof folders and media files "
            + "in them and their subfolders, each verified).")
    List<Path> paths;

    @Override
    public Integer call() throws Exception {
        if (json && brief) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--json and --short: choose one");
        }
        ShownPaths shown = new ShownPaths(root.ctx);
        try {
            return verifyAll(shown);
        } catch (ProofModeException e) {
            throw new ProofModeException(e.failure(), shown.show(e.getMessage()), e);
        }
    }

    private int verifyAll(ShownPaths shown) throws IOException {
        CliContext ctx = root.ctx;
        // Paths are opened against the caller's folder (the agent's differs) and shown as typed.
        trust = trust.stream().map(shown::open).toList();
        tsaTrust = tsaTrust.stream().map(shown::open).toList();
        c2paTrust = c2paTrust.stream().map(shown::open).toList();
        integrityRoots = shown.open(integrityRoots);
        media = shown.open(media);
        original = shown.open(original);
        paths = paths.stream().map(shown::open).toList();
        identityFiles = identityFiles.stream().map(shown::open).toList();
        try (Identities ids = Age.readIdentities(identityFiles)) {
            identities = ids;
            return verifyWith(ctx, shown);
        }
    }

    private int verifyWith(CliContext ctx, ShownPaths shown) throws IOException {
        startHashing();
        ProofMode pm = root.proofMode();
        Verifier verifier = integrity(witnessed(verifier(ctx, pm, trust, tsaTrust, c2paTrust, logKeys), pm, shown));
        if (jobs != null && jobs < 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--jobs must be at least 1");
        }
        if (media != null) {
            InputFiles.requireRegular(media, "media file");
        }
        if (original != null && !Files.exists(original)) {
            throw new ProofModeException(Failure.INPUT_MISSING, original + ": no such file or folder");
        }
        if (original != null) {
            requireFileOrFolder(original);
        }
        if (original != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--original goes with a single PATH");
        }
        if (media != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--media goes with a single PATH");
        }
        C2paChecks c2pa = verifier.c2paChecks();
        VerifyBatch.Items items = VerifyBatch.expand(paths);
        if (items.leftOut() > 0) {
            ctx.err().println("proofmode: left out " + items.leftOut() + " file" + (items.leftOut() == 1 ? "" : "s")
                    + " that are neither media nor bundles");
        }
        if (items.paths().isEmpty()) {
            throw new ProofModeException(Failure.INPUT_MISSING, paths.get(0) + ": no media, bundles or proof folders in this folder");
        }
        if (items.paths().size() == 1 && !items.fromFolder()) {
            return single(pm, verifier, c2pa, items.paths().get(0), shown);
        }
        if (media != null || original != null) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, (media != null ? "--media" : "--original")
                    + " goes with a single bundle, not a folder of them");
        }
        long start = System.nanoTime();
        int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        VerifyBatch.Summary summary = VerifyBatch.run(items.paths(), threads, p -> verifyOne(pm, verifier, c2pa, p), ctx,
                json ? VerifyBatch.Format.JSON : brief ? VerifyBatch.Format.BRIEF : VerifyBatch.Format.TEXT, shown::show);
        if (!json && !brief) {
            VerifyBatch.printSummary(ctx.out(), summary, items.paths().size(), (System.nanoTime() - start) / 1e9, shown::show);
        }
        if (!summary.unreadable().isEmpty()) {
            return ExitCodes.of(summary.unreadable().get(0).failure().orElseThrow().failure());
        }
        return exit(summary.overall());
    }

    /**
     * The verifier for the trust options of {@code verify} and {@code report}: keys, time-stamp roots, C2PA
     * anchors and transparency-log keys besides the home's own (paths already resolved).
     */
    static Verifier verifier(CliContext ctx, ProofMode pm, List<Path> trust, List<Path> tsaTrust, List<Path> c2paTrust,
            List<String> logKeys) throws IOException {
        List<PGPPublicKeyRing> trusted = new ArrayList<>();
        for (Path t : trust) {
            if (!Files.exists(t)) {
                throw new ProofModeException(Failure.INPUT_MISSING, t + ": no such key file");
            }
            trusted.addAll(OpenPgpKeys.readCertificates(InputFiles.read(t, InputFiles.KEY_BYTES, "key file"), t.toString()));
        }
        List<X509Certificate> tsaRoots = new ArrayList<>();
        for (Path t : tsaTrust) {
            tsaRoots.addAll(TrustedRoots.read(t));
        }
        List<X509Certificate> anchors = new ArrayList<>();
        for (Path t : c2paTrust) {
            anchors.addAll(TrustedRoots.read(t));
        }
        List<NoteKey> logs = new ArrayList<>();
        for (String k : logKeys) {
            logs.add(logKey(ctx, k));
        }
        return pm.verifier(trusted, tsaRoots, anchors).withLogKeys(pm.logKeys(logs));
    }

    /** The verifier with the roots of {@code --integrity-roots}, when given, for device attestations. */
    private Verifier integrity(Verifier v) {
        return integrityRoots == null ? v : v.withDeviceIntegrity(DeviceIntegrityChecks.of(TrustedRoots.read(integrityRoots),
                List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID)));
    }

    /** The verifier with {@code --require-witnesses} and the witnesses of {@code --witnesses} added. */
    private Verifier witnessed(Verifier v, ProofMode pm, ShownPaths shown) {
        if (requireWitnesses < 0) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--require-witnesses is 0 or more");
        }
        if (witnessesFile == null) {
            return v.withRequiredWitnesses(requireWitnesses);
        }
        List<NoteKey> keys = new ArrayList<>(v.logKeys());
        LogKeyOptions.witnesses(shown.open(witnessesFile)).forEach(w -> keys.add(w.key()));
        return v.withLogKeys(keys).withRequiredWitnesses(requireWitnesses);
    }

    /** One bundle, folder or media file: its report as before batches existed (a single JSON document with --json). */
    /** A {@code --log-key} value: a verifier key, or a file holding one. */
    static NoteKey logKey(CliContext ctx, String value) {
        if (!value.contains("+") || Files.isRegularFile(ctx.resolve(Path.of(value)))) {
            return ProofMode.readLogKey(ctx.resolve(Path.of(value)));
        }
        try {
            return NoteKey.parse(value);
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--log-key " + SafeText.escape(value)
                    + ": not a verifier key (origin+hash+base64) or a file holding one");
        }
    }

    private int single(ProofMode pm, Verifier verifier, C2paChecks c2pa, Path p, ShownPaths shown) throws IOException {
        CliContext ctx = root.ctx;
        VerificationReport r = verifyOne(pm, verifier, c2pa, p);
        if (json) {
            ctx.out().print(shown.show(ReportJson.write(r)));
        } else if (brief) {
            StringWriter line = new StringWriter();
            ReportPrinter.brief(new PrintWriter(line), r);
            ctx.out().print(shown.show(line.toString()));
        } else {
            StringWriter text = new StringWriter();
            ReportPrinter.print(new PrintWriter(text), r);
            ctx.out().print(shown.show(text.toString()));
        }
        ctx.out().flush();
        return exit(r.verdict());
    }

    private int exit(Verdict overall) {
        if (overall == Verdict.INVALID) {
            return ExitCodes.INVALID;
        }
        if (overall == Verdict.INCOMPLETE) {
            root.ctx.err().println("proofmode: incomplete: a content binding could not be checked, so nothing shows the content is unchanged");
            return ExitCodes.UNSUPPORTED;
        }
        if (requireTrusted && overall != Verdict.TRUSTED) {
            root.ctx.err().println("proofmode: valid, but not signed by a trusted key (--require-trusted)");
            return ExitCodes.UNTRUSTED;
        }
        return ExitCodes.OK;
    }

    private VerificationReport verifyOne(ProofMode pm, Verifier verifier, C2paChecks c2pa, Path p) throws IOException {
        if (!Files.exists(p)) {
            throw new ProofModeException(Failure.INPUT_MISSING, p + ": no such file or folder");
        }
        requireFileOrFolder(p);
        Optional<RedactionOriginal> orig = Optional.empty();
        if (original != null) {
            requireFileOrFolder(original);
            boolean bundle = Files.isDirectory(original) || MediaSniffer.sniff(original).isEmpty();
            orig = Optional.of(new RedactionOriginal(original, bundle ? Optional.empty() : pm.store().find(Digests.sha256(original))));
        }
        if (Age.isAge(p)) {
            try (Bundle bundle = Bundle.open(p, BundleLimits.DEFAULT, identities)) {
                return verifier.verify(bundle, Optional.ofNullable(media), orig);
            }
        }
        if (Verifier.isCollection(p)) {
            return verifier.verifyCollection(p);
        }
        if (Files.isDirectory(p) || MediaSniffer.sniff(p).isEmpty()) {
            // The verifier checks the content credentials of the bundle's media and of --media.
            return media == null ? verifier.verify(p, Optional.empty(), orig) : verifier.verify(p, media, () -> hash(media), orig);
        }
        // One read of the media: its hash finds the proof, and the same hash state checks the signature.
        Prehash hashed = hash(p);
        String sha = hashed.sha256();
        if (pm.store().isEncrypted()) {
            ProofMode reading = reading(pm);
            Optional<Bundle> sealed = reading.store().bundle(sha, BundleLimits.DEFAULT);
            if (sealed.isPresent()) {
                try (Bundle b = sealed.get()) {
                    return asTyped(verifier.verify(b, Optional.of(p), orig), p, pm.store().root());
                }
            }
        }
        Optional<Path> folder = pm.store().isEncrypted() ? Optional.empty() : pm.store().find(sha);
        if (folder.isEmpty()) {
            // A file changed since it was proved: checked against the proof made of it there, so it shows INVALID.
            Optional<Path> before = pm.provedAt(p);
            if (before.isPresent()) {
                return asTyped(verifier.verify(before.get(), p, () -> hashed, orig), p, before.get());
            }
            return c2pa.alone(p).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                    p + ": no proof of this file (SHA-256 " + sha + ") in " + pm.store().root()
                            + " and no content credentials in it; verify its bundle or proof folder instead"));
        }
        return asTyped(verifier.verify(folder.get(), p, () -> hashed, orig), p, folder.get());
    }

    /** The report of a media file verified by its stored proof, named by the file and the proof it found. */
    private static VerificationReport asTyped(VerificationReport r, Path media, Path stored) {
        return new VerificationReport(media + " (its proof: " + stored + ")", r.verdict(), r.checks(), r.proofs());
    }

    /** The home able to read its encrypted store: unlocked once, on the first proof looked up there. */
    private synchronized ProofMode reading(ProofMode pm) {
        if (readingHome == null) {
            readingHome = StoreAccess.reading(root.ctx, pm, unlock.passphraseFile);
        }
        return readingHome;
    }

    /** Refuses a device, FIFO or socket before anything reads it (a FIFO would wait forever, /dev/zero never end). */
    private static void requireFileOrFolder(Path p) {
        if (!Files.isDirectory(p)) {
            InputFiles.requireRegular(p, "bundle (.zip), a proof folder or a proved media file");
        }
    }

    /**
     * Starts reading the one media file of this command (--media, or a single media PATH) on its own
     * thread at once, so that its hashing overlaps with loading keys, trust anchors and the proof.
     */
    private void startHashing() throws IOException {
        if (paths.size() != 1) {
            return;
        }
        Path f = media != null ? media : paths.get(0);
        if (!Files.isRegularFile(f) || media == null && MediaSniffer.sniff(f).isEmpty()) {
            return;
        }
        early = Optional.of(f);
        Optional<EarlyRead> begun = EarlyRead.take(f, StreamSigner.Progress.NONE);
        if (begun.isPresent()) {
            earlyHash = begun.get().future();
            return;
        }
        earlyHash = CompletableFuture.supplyAsync(() -> {
            try {
                return digest(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> {
            Thread t = new Thread(r, "proofmode-hash");
            t.setDaemon(true);
            t.start();
        });
    }

    /** The media's SHA-256 state: from the read started early if it was this file, else read now. */
    private Prehash hash(Path f) throws IOException {
        if (early.isPresent() && early.get().equals(f)) {
            try {
                return earlyHash.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof UncheckedIOException u) {
                    throw u.getCause();
                }
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw e;
            }
        }
        return digest(f);
    }

    private static Prehash digest(Path f) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            return StreamSigner.digest(ch, StreamSigner.Progress.NONE);
        }
    }
}
