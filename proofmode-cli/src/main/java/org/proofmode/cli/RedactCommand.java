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
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.ImageFormat;
import org.proofmode.redact.C2paSeal;
import org.proofmode.redact.Method;
import org.proofmode.redact.RedactionPlan;
import org.proofmode.redact.RedactionRequest;
import org.proofmode.redact.RedactionResult;
import org.proofmode.redact.Redactor;
import org.proofmode.redact.Region;
import org.proofmode.redact.StripPolicy;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode redact}: a redacted copy that keeps a verifiable link to its proved original. */
@Command(name = "redact", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Make a redacted copy of a JPEG or PNG photo: hide faces, badges or signs, and remove identifying metadata, "
                + "while keeping a signed link to the proved original.",
            "",
            "Regions are X,Y,W,H in pixels of the photo as viewers show it (its EXIF orientation applied). --pixelate "
                + "replaces blocks of at least 8 pixels (about a sixth of the region's shorter side) by their average; --blur "
                + "smooths those block averages; --fill paints black. All three are irreversible. --faces detects frontal "
                + "faces (OpenCV) and adds them as regions; detection misses faces, so every box is printed for review, and "
                + "--dry-run lists the regions without writing anything.",
            "",
            "The copy is encoded afresh, so it carries none of the original's metadata: no GPS, make, model, serial numbers, "
                + "owner, software, maker notes, XMP (history, document IDs), IPTC, comments, and no EXIF thumbnail or "
                + "preview, which would still show the unredacted picture. --strip location|device|none writes back the "
                + "allowed EXIF fields into a JPEG copy: capture settings and times, plus device fields (location) or GPS "
                + "(device) or both (none); never the thumbnail, maker notes or orientation.",
            "",
            "The copy is proved into the store with OUT's SHA-256 <h>, and beside its proof goes <h>.redaction.json, "
                + "signed by the device key (<h>.redaction.json.asc): the original's SHA-256 and signer (from its proof in "
                + "the store: prove originals first), the regions and methods, the metadata removed, the tool and the time. "
                + "The copy's proof never records location, network or device identifiers. 'proofmode verify OUT' reports "
                + "the link; 'proofmode verify --original ORIG OUT' also compares the pixels and checks the original's proof. "
                + "Prints each region, then '<h>  OUT'.",
            "",
            "--c2pa embeds content credentials (C2PA) in the copy first, signed like 'proofmode c2pa sign' (one passphrase "
                + "for the device key and the C2PA key), so the proof and the record cover the manifest; the manifest changes no "
                + "pixel. It names the original as its parentOf ingredient (SHA-256 and media type; titled original.jpg or "
                + "original.png, never its file name), records c2pa.opened, c2pa.edited with the hidden rectangles as regions of "
                + "interest, and c2pa.edited.metadata when metadata was removed, and carries no capture metadata (no location, "
                + "device or time) whatever --strip keeps. It does not use c2pa.redacted, which C2PA defines for assertions "
                + "removed from an ingredient's manifest, not for pixels. When the original has content credentials of its own "
                + "(a phone's, a camera's), the copy keeps their whole chain: the original's active manifest is the parentOf "
                + "ingredient, every earlier manifest stays, and the assertions of those manifests that would give away what "
                + "was hidden are redacted as C2PA specifies (removed, listed in the claim's redacted_assertions, each with a "
                + "c2pa.redacted action): thumbnails, and assertions recording a location or a device identifier (serial "
                + "number, owner, unique id) when --strip removes that group. Each is printed as 'c2pa-redact LABEL WHY "
                + "MANIFEST', with --dry-run too.",
            ""},
        footer = {"", "Examples:", "  proofmode redact IMG_0001.jpg -o IMG_0001-redacted.jpg --pixelate 120,80,200,240",
            "  proofmode redact --faces --dry-run IMG_0001.jpg -o out.jpg      list the faces found, write nothing",
            "  proofmode redact --faces --fill 40,600,300,80 --strip location IMG_0001.jpg -o out.jpg",
            "  proofmode redact --c2pa --fill 40,600,300,80 IMG_0001.jpg -o out.jpg   with content credentials",
            "  proofmode verify --original IMG_0001.jpg out.jpg", "",
            "Exit 61 also when --faces finds no model file (install Debian's opencv-data, or give --face-model).", "",
            ExitCodes.HELP_TABLE})
final class RedactCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true,
            description = "The redacted copy to write (.jpg/.jpeg or .png chooses the format; otherwise the original's).")
    Path output;

    @Option(names = "--pixelate", paramLabel = "X,Y,W,H", description = "Pixelate this region (repeatable).")
    List<String> pixelate = new ArrayList<>();

    @Option(names = "--blur", paramLabel = "X,Y,W,H", description = "Blur this region (repeatable).")
    List<String> blur = new ArrayList<>();

    @Option(names = "--fill", paramLabel = "X,Y,W,H", description = "Paint this region black (repeatable).")
    List<String> fill = new ArrayList<>();

    @Option(names = "--faces", description = "Detect faces and redact them too (review the boxes printed).")
    boolean faces;

    @Option(names = "--face-method", paramLabel = "METHOD", defaultValue = "pixelate",
            description = "How detected faces are hidden: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Method faceMethod;

    @Option(names = "--face-model", paramLabel = "FILE", description = "OpenCV Haar cascade for --faces (default: "
            + "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml, from Debian's opencv-data).")
    Path faceModel;

    @Option(names = "--strip", paramLabel = "WHAT", defaultValue = "all",
            description = "Metadata to remove: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: keep none).")
    StripPolicy strip;

    @Option(names = "--c2pa", description = "Embed content credentials (C2PA) in the copy before proving it: a manifest "
            + "signed by the local C2PA CA's device certificate (created on first use; see 'proofmode c2pa'), with the "
            + "original as its parentOf ingredient (by SHA-256) and the hidden regions as a c2pa.edited action.")
    boolean c2pa;

    @Option(names = "--dry-run", description = "List the regions (with detected faces) and write nothing.")
    boolean dryRun;

    @Option(names = "--force", description = "Replace OUT if it exists.")
    boolean force;

    @Mixin
    KeyOptions keyOptions;

    @Parameters(paramLabel = "IN", description = "The original photo (JPEG or PNG).")
    Path input;

    @Override
    public Integer call() throws IOException {
        CliContext ctx = root.ctx;
        if (!Files.isRegularFile(input)) {
            throw new ProofModeException(Failure.INPUT_MISSING, input + ": no such file");
        }
        if (Files.exists(output) && Files.isSameFile(input, output)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, output + ": the copy must not replace the original");
        }
        if (!dryRun && !force && Files.exists(output)) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force to replace it)");
        }
        List<Region> regions = new ArrayList<>();
        add(regions, pixelate, Method.PIXELATE, "--pixelate");
        add(regions, blur, Method.BLUR, "--blur");
        add(regions, fill, Method.FILL, "--fill");
        Optional<RedactionRequest.FaceSearch> search = faces
                ? Optional.of(new RedactionRequest.FaceSearch(faceModel != null ? faceModel : RedactionRequest.DEBIAN_FACE_MODEL, faceMethod))
                : Optional.empty();
        RedactionRequest request = new RedactionRequest(regions, search, strip, ImageFormat.ofFileName(output.getFileName().toString()));
        ProofMode pm = StoreAccess.reading(ctx, root.proofMode(), keyOptions.passphraseFile);
        C2paAccess.Unlocked[] unlocked = new C2paAccess.Unlocked[1];
        Redactor redactor = pm.redactor(() -> unlocked[0] != null ? unlocked[0].key()
                : DeviceKeyAccess.unlockOrCreate(ctx, pm, keyOptions), pm.settings(), strip);
        RedactionPlan plan = redactor.plan(input, request);
        int n = 1;
        for (Region r : plan.regions()) {
            ctx.out().println("region " + n++ + "  " + r.method().id() + "  " + r.box() + "  " + r.source().id());
        }
        if (faces) {
            ctx.err().println("proofmode: " + (plan.faces() == 0 ? "no face found" : plan.faces() + (plan.faces() == 1 ? " face" : " faces")
                    + " found") + "; detection misses faces (profiles, small or covered ones): look at the copy before sharing it");
        }
        if (c2pa) {
            plan.credentialsRedacted().forEach(x -> ctx.out().println("c2pa-redact  " + SafeText.escape(x.label()) + "  " + x.why()
                    + "  " + SafeText.escape(x.manifest())));
        }
        if (dryRun) {
            ctx.err().println("proofmode: dry run: nothing written");
            return ExitCodes.OK;
        }
        Optional<C2paSeal> seal = Optional.empty();
        if (c2pa) {
            unlocked[0] = C2paAccess.unlockBoth(ctx, pm, keyOptions, null, null);
            seal = Optional.of(new C2paSeal(unlocked[0].signer(), unlocked[0].info().fingerprint(), Optional.empty()));
        }
        RedactionResult result = redactor.write(plan, output, force, seal);
        if (result.record().original().signer().isEmpty()) {
            ctx.err().println("proofmode: " + input + " has no proof in the store, so the record names it by hash only "
                    + "(prove originals first: proofmode prove " + input + ")");
        }
        if (result.existingProof()) {
            ctx.err().println("proofmode: this exact copy was proved before; its proof and record are kept");
        }
        ctx.out().println(result.sha256() + "  " + output);
        return ExitCodes.OK;
    }

    private static void add(List<Region> regions, List<String> boxes, Method method, String option) {
        for (String b : boxes) {
            try {
                regions.add(new Region(Region.parseBox(b), method, Region.Source.MANUAL));
            } catch (IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, option + ": " + e.getMessage(), e);
            }
        }
    }
}
