// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.cli.print.ReportPrinter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Hex;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Check;
import org.proofmode.verify.MediaComparison.Relation;
import org.proofmode.verify.MediaComparison.Side;
import org.proofmode.verify.MediaComparison;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode compare}: how two media relate. */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Say how two media relate: the same bytes; the same content in another container or with other metadata "
                + "(the same decoded video frames, audio samples or image pixels); an excerpt (a run of one's frames "
                + "inside the other's, with which frames and at what times); perceptually close (images by their perceptual "
                + "hash; videos by one frame per second, at the best alignment, so a re-encoded, resized or cut copy is "
                + "found with the seconds it covers); or different.",
            "",
            "Each of A and B is a media file (hashed now: image hashes, or frame and sample hashes by ffmpeg), a "
                + "share bundle or proof folder, or the SHA-256 of a proof in the store. A proof is verified first and "
                + "speaks for its media only if it verifies (signed by any key; 'proofmode verify' says by whom); its "
                + "frame list (<sha256>.frames) lets an excerpt be found without the original file.",
            ""},
        footer = {"", "Examples:", "  proofmode compare original.mp4 from-messenger.mp4",
            "  proofmode compare 5860ae6ab6c0de34...14cb0300 excerpt.mkv    (a stored proof, by its hash)",
            "  proofmode compare proof.zip IMG_0001-resized.jpg",
            "", "compare exits 0 when the two are the same bytes or content, or one is an excerpt of the other, and 3",
            "when they differ (also when only perceptually close, or when a proof does not verify).", "", ExitCodes.HELP_TABLE})
final class CompareCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Parameters(index = "0", paramLabel = "A", description = "A media file, a bundle or proof folder, or a stored proof's SHA-256.")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "The same kinds as A.")
    String b;

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        ProofMode pm = root.proofMode();
        List<String> notes = new ArrayList<>();
        Verifier verifier = pm.verifier(List.of());
        Side sa = side(ctx, pm, verifier, a, notes);
        Side sb = side(ctx, pm, verifier, b, notes);
        MediaComparison.Result r = MediaComparison.compare(sa, sb);
        for (Side s : List.of(sa, sb)) {
            ctx.out().println(SafeText.escape((s == sa ? "A: " : "B: ") + s.name() + " ("
                    + s.proof().map(v -> "proof, " + v.name()).orElse("media file") + s.sha256().map(h -> ", SHA-256 " + h).orElse("")
                    + ")"));
        }
        for (Check c : r.checks()) {
            ReportPrinter.line(ctx.out(), "  ", c);
        }
        ctx.out().println(summary(r.relation()));
        for (String n : notes) {
            ctx.err().println("proofmode: " + SafeText.escape(n));
        }
        return r.relation() == Relation.SIMILAR || r.relation() == Relation.DIFFERENT ? ExitCodes.INVALID : ExitCodes.OK;
    }

    private static String summary(Relation r) {
        return switch (r) {
            case SAME_BYTES -> "same bytes";
            case SAME_CONTENT -> "same content: other bytes, the same decoded frames, samples or pixels";
            case EXCERPT -> "excerpt: one is a run of the other's frames";
            case SIMILAR -> "similar: other pixels or frames, perceptually close";
            case DIFFERENT -> "different";
        };
    }

    /** A side named on the command line: a stored proof's hash, a bundle or proof folder, or a media file. */
    private static Side side(CliContext ctx, ProofMode pm, Verifier verifier, String arg, List<String> notes) throws IOException {
        Path path = ctx.resolve(Path.of(arg));
        if (!Files.exists(path) && Hex.isSha256(arg)) {
            return MediaComparison.ofBundle(verifier, pm.find(arg).folder(), arg);
        }
        if (!Files.exists(path)) {
            throw new ProofModeException(Failure.INPUT_MISSING, arg + ": no such file, and not a proof hash");
        }
        if (!Files.isDirectory(path) && !Files.isRegularFile(path)) {
            throw new ProofModeException(Failure.UNSUPPORTED, arg + ": not a regular file (a device, FIFO or socket)");
        }
        return MediaComparison.of(verifier, path, arg, notes);
    }
}
