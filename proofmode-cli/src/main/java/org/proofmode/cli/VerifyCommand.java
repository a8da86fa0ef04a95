// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.InputFiles;
import org.proofmode.verify.Targets;
import org.proofmode.verify.Trust;
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
                + "token cannot be checked offline (integrity.playIntegrity.unverifiable). An Android key attestation beside a "
                + "proof (<h>.attest.pem, the attested key's certificate chain, PEM, leaf first) is checked offline too: its chain "
                + "to Google's attestation roots (bundled, or --integrity-roots) when its newest certificate became valid, a saved "
                + "revocation list (--attestation-status), its challenge naming this proof's media, and what it says: where the "
                + "key was made, the boot state, the app (integrity.keyAttestation.valid, .chain.invalid, .challenge.mismatch, "
                + ".revoked; warnings .software, .boot.unverified, .app.unknown).",
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
            + "(/etc/ssl/certs/ca-certificates.crt or the JDK's cacerts), and Android key attestations (<h>.attest.pem) "
            + "instead of Google's bundled attestation roots: put every root you accept in the file.")
    Path integrityRoots;

    @Option(names = "--attestation-status", paramLabel = "FILE", description = "Google's list of revoked key attestation "
            + "certificates, saved from https://android.googleapis.com/attestation/status: a key attestation with a listed "
            + "certificate is integrity.keyAttestation.revoked (nothing is fetched).")
    Path attestationStatus;

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
            return verifyAll(root.ctx, shown);
        } catch (ProofModeException e) {
            throw new ProofModeException(e.failure(), shown.show(e.getMessage()), e);
        }
    }

    private int verifyAll(CliContext ctx, ShownPaths shown) throws IOException {
        // Paths are opened against the caller's folder (the agent's differs) and shown as typed.
        paths = paths.stream().map(shown::open).toList();
        Optional<Path> mediaFile = Optional.ofNullable(shown.open(media));
        Optional<Path> originalFile = Optional.ofNullable(shown.open(original));
        try (Identities ids = Age.readIdentities(identityFiles.stream().map(shown::open).toList())) {
            EarlyHash hashing = EarlyHash.start(paths, mediaFile);
            ProofMode pm = root.proofMode();
            Verifier verifier = pm.verifier(trust(ctx, shown));
            requireUsable(mediaFile, originalFile);
            Targets.Items items = Targets.expand(paths);
            if (items.leftOut() > 0) {
                ctx.err().println("proofmode: left out " + items.leftOut() + " file" + (items.leftOut() == 1 ? "" : "s")
                        + " that are neither media nor bundles");
            }
            if (items.paths().isEmpty()) {
                throw new ProofModeException(Failure.INPUT_MISSING, paths.get(0) + ": no media, bundles or proof folders in this folder");
            }
            Targets targets = new Targets(verifier, pm.storedProofs(() -> StoreAccess.reading(ctx, pm, unlock.passphraseFile).store()),
                    ids, mediaFile, originalFile, hashing);
            VerifyBatch.Format format = json ? VerifyBatch.Format.JSON : brief ? VerifyBatch.Format.BRIEF : VerifyBatch.Format.TEXT;
            if (items.paths().size() == 1 && !items.fromFolder()) {
                Path item = items.paths().get(0);
                return VerifyOutput.printOne(ctx, item, targets.verify(item), format, shown::show, requireTrusted);
            }
            if (media != null || original != null) {
                throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, (media != null ? "--media" : "--original")
                        + " goes with a single bundle, not a folder of them");
            }
            int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
            return VerifyBatch.runAll(items.paths(), threads, targets::verify, ctx, format, shown::show, requireTrusted);
        }
    }

    /** What is trusted: the trust options, and the witnesses {@code --require-witnesses} asks for. */
    private Trust trust(CliContext ctx, ShownPaths shown) {
        Trust t = TrustArguments.trust(ctx, shown, trust, tsaTrust, c2paTrust, logKeys);
        if (requireWitnesses < 0) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--require-witnesses is 0 or more");
        }
        if (witnessesFile != null) {
            t = t.withLogKeys(LogKeyOptions.witnesses(shown.open(witnessesFile)).stream().map(w -> w.key()).toList());
        }
        t = t.withRequiredWitnesses(requireWitnesses);
        return TrustArguments.withIntegrity(t, shown, integrityRoots, attestationStatus);
    }

    private void requireUsable(Optional<Path> mediaFile, Optional<Path> originalFile) {
        if (jobs != null && jobs < 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--jobs must be at least 1");
        }
        if (mediaFile.isPresent()) {
            InputFiles.requireRegular(mediaFile.get(), "media file");
        }
        if (originalFile.isPresent() && !Files.exists(originalFile.get())) {
            throw new ProofModeException(Failure.INPUT_MISSING, originalFile.get() + ": no such file or folder");
        }
        originalFile.ifPresent(Targets::requireFileOrFolder);
        if (original != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--original goes with a single PATH");
        }
        if (media != null && paths.size() > 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--media goes with a single PATH");
        }
    }
}
