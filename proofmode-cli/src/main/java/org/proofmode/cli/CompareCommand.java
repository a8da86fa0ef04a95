// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Hex;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Check;
import org.proofmode.verify.MediaComparison.Relation;
import org.proofmode.verify.MediaComparison.Side;
import org.proofmode.verify.MediaComparison;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode compare}: how two media relate. */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Say how two media relate, as one outcome: the same bytes; the same content in another container or with "
                + "other metadata (the same decoded video frames, audio samples or image pixels); an excerpt (one "
                + "contiguous run of the other's frames, with which frames and at what times, and the other's sound at "
                + "those times where both have sound); perceptually close, not the same (images by their perceptual hash; "
                + "videos by one frame per second, at the best alignment, so a re-encoded, resized or cut copy is found "
                + "with the seconds it covers); different (other content, frames spliced with foreign ones or reordered, "
                + "or an excerpt's frames with other sound); uncomparable (nothing both have shows how they relate); or "
                + "proof invalid (a proof does not verify, so what it records says nothing).",
            "",
            "Each of A and B is a media file (hashed now: image hashes, or frame and sample hashes by ffmpeg), a "
                + "share bundle or proof folder, or the SHA-256 of a proof in the store. A proof is verified first and "
                + "speaks for its media only if it verifies (signed by any key; 'proofmode verify' says by whom); its "
                + "frame list (<sha256>.frames) lets an excerpt be found without the original file. In an encrypted store "
                + "a stored proof is read with the store's identity: the agent's, or unlocked with the device key's "
                + "passphrase (--passphrase-file, PROOFMODE_PASSPHRASE or a prompt); two files need no passphrase.",
            ""},
        footer = {"", "Examples:", "  proofmode compare original.mp4 from-messenger.mp4",
            "  proofmode compare 5860ae6ab6c0de34...14cb0300 excerpt.mkv    (a stored proof, by its hash)",
            "  proofmode compare --passphrase-file pass.txt 5860ae6a...14cb0300 copy.mp4    (a proof in an encrypted store)",
            "  proofmode compare proof.zip IMG_0001-resized.jpg",
            "  proofmode compare --json original.mp4 clip.mp4    (one JSON object: outcome, exit code, checks)",
            "", "Outcomes and exit codes:",
            "   0  PASS  same bytes, same content, or excerpt",
            "   2  WARN  perceptually close, not the same",
            "   3  FAIL  different, or proof invalid",
            "  13  WARN  uncomparable", "", ExitCodes.HELP_TABLE})
final class CompareCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Parameters(index = "0", paramLabel = "A", description = "A media file, a bundle or proof folder, or a stored proof's SHA-256.")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "The same kinds as A.")
    String b;

    @Mixin
    UnlockOptions unlock = new UnlockOptions();

    /** The home able to read its encrypted store: unlocked once, on the first stored proof looked up. */
    private ProofMode readingHome;

    @Option(names = "--json", description = "Print one JSON object: relation, status, outcome, exitCode, the sides, the checks "
            + "and notes (the server's comparison format, with exitCode).")
    boolean json;

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        ProofMode pm = root.proofMode();
        List<String> notes = new ArrayList<>();
        Verifier verifier = pm.verifier(Trust.HOME);
        Side sa = side(pm, verifier, a, notes);
        Side sb = side(pm, verifier, b, notes);
        MediaComparison.Result r = MediaComparison.compare(sa, sb);
        int exit = exitCode(r.relation());
        if (json) {
            ObjectNode node = ReportJson.toNode(sa, sb, r, notes);
            node.put("exitCode", exit);
            ctx.out().println(node.toString());
            return exit;
        }
        for (Side s : List.of(sa, sb)) {
            ctx.out().println(SafeText.escape((s == sa ? "A: " : "B: ") + s.name() + " ("
                    + s.proof().map(v -> "proof, " + v.name()).orElse("media file") + s.sha256().map(h -> ", SHA-256 " + h).orElse("")
                    + ")"));
        }
        for (Check c : r.checks()) {
            ReportPrinter.line(ctx.out(), "  ", c);
        }
        ctx.out().println(r.relation().status() + "  " + r.relation().words());
        for (String n : notes) {
            ctx.err().println("proofmode: " + SafeText.escape(n));
        }
        return exit;
    }

    /** Each outcome's exit code, as {@code --help} lists them. */
    static int exitCode(Relation r) {
        return switch (r) {
            case SAME_BYTES, SAME_CONTENT, EXCERPT -> ExitCodes.OK;
            case SIMILAR -> ExitCodes.CLOSE;
            case DIFFERENT, PROOF_INVALID -> ExitCodes.INVALID;
            case UNCOMPARABLE -> ExitCodes.UNSUPPORTED;
        };
    }

    /** A side named on the command line: a stored proof's hash, a bundle or proof folder, or a media file. */
    private Side side(ProofMode pm, Verifier verifier, String arg, List<String> notes) throws IOException {
        Path path = root.ctx.resolve(Path.of(arg));
        if (!Files.exists(path) && Hex.isSha256(arg)) {
            return stored(pm, verifier, arg);
        }
        if (!Files.exists(path)) {
            throw new ProofModeException(Failure.INPUT_MISSING, arg + ": no such file, and not a proof hash");
        }
        if (!Files.isDirectory(path) && !Files.isRegularFile(path)) {
            throw new ProofModeException(Failure.UNSUPPORTED, arg + ": not a regular file (a device, FIFO or socket)");
        }
        return MediaComparison.of(verifier, path, arg, notes);
    }

    /**
     * A stored proof named by its hash: its folder in a plain store; in an encrypted one its sealed set,
     * read with the store's identity (from the agent, or unlocked as {@code verify} unlocks it).
     */
    private Side stored(ProofMode pm, Verifier verifier, String sha) throws IOException {
        if (!pm.store().isEncrypted()) {
            return MediaComparison.ofBundle(verifier, pm.find(sha).folder(), sha);
        }
        if (readingHome == null) {
            readingHome = StoreAccess.reading(root.ctx, pm, unlock.passphraseFile);
        }
        Optional<Bundle> sealed = readingHome.store().bundle(sha, BundleLimits.DEFAULT);
        if (sealed.isEmpty()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no proof with hash " + sha.toLowerCase(Locale.ROOT) + " in "
                    + pm.store().root());
        }
        try (Bundle b = sealed.get()) {
            return MediaComparison.ofBundle(verifier, b, sha);
        }
    }
}
