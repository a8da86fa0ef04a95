// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.c2pa.C2paFormatException;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.ManifestChain;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.Box;
import org.proofmode.imaging.ExifWriteBack;
import org.proofmode.imaging.FaceDetector;
import org.proofmode.imaging.ImageFormat;
import org.proofmode.imaging.Picture;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.InputFiles;

/**
 * Makes redacted copies of photos that keep a verifiable link to their original: {@link #plan} decodes
 * the original and finds faces, {@link #write} hides the regions, strips metadata, writes the copy, and
 * proves it with a signed {@link RedactionRecord} beside its proof.
 *
 * <p>Security: the copy is encoded afresh from pixels, so no metadata of the original survives except
 * the EXIF fields the {@link StripPolicy} allows; pixelation and blur keep only block averages, and fill
 * keeps nothing. The record names the original by hash and signer only.
 */
public final class Redactor {
    /** Largest original read, in bytes. */
    public static final long MAX_INPUT_BYTES = 512L << 20;

    private final ProofStore store;
    private final Prover prover;
    private final Clock clock;

    /**
     * Creates a redactor.
     *
     * @param store where the original's proof is looked up (for its signer)
     * @param prover proves the copy, with the record attached
     * @param clock the time of records
     */
    public Redactor(ProofStore store, Prover prover, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.prover = Objects.requireNonNull(prover, "prover");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Reads the original, checks the regions and detects faces.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} (no such file, or no face model),
     *     {@link Failure#UNSUPPORTED} (not a JPEG or PNG, a PNG copy asked to keep EXIF, OpenCV not
     *     available), {@link Failure#BAD_DATA} (cannot be decoded), {@link Failure#BAD_ARGUMENT} (a region
     *     outside the image)
     */
    public RedactionPlan plan(Path input, RedactionRequest request) {
        byte[] bytes = read(input);
        ImageFormat in = MediaSniffer.sniff(bytes, Math.min(bytes.length, MediaSniffer.HEAD_LENGTH))
                .flatMap(t -> ImageFormat.ofMimeType(t.mimeType()))
                .orElseThrow(() -> new ProofModeException(Failure.UNSUPPORTED, input + ": redaction works on JPEG and PNG photos only"));
        ImageFormat out = request.format().orElse(in);
        if (out == ImageFormat.PNG && request.strip() != StripPolicy.ALL) {
            throw new ProofModeException(Failure.UNSUPPORTED, "--strip " + request.strip().id()
                    + ": EXIF fields are written back into JPEG copies only; a PNG copy carries no metadata (use --strip all)");
        }
        Picture picture;
        try {
            picture = Picture.decode(bytes);
        } catch (Picture.Undecodable e) {
            throw new ProofModeException(Failure.BAD_DATA, input + ": " + e.getMessage(), e);
        }
        List<Region> regions = new ArrayList<>();
        for (Region r : request.regions()) {
            if (!r.box().fitsIn(picture.width(), picture.height())) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "region " + r.box() + " is outside the "
                        + picture.width() + "x" + picture.height() + " image (X,Y,W,H in pixels as displayed)");
            }
            regions.add(r);
        }
        int faces = 0;
        if (request.faces().isPresent()) {
            RedactionRequest.FaceSearch f = request.faces().get();
            for (Box b : detector(f.model()).detect(picture)) {
                regions.add(new Region(b, f.method(), Region.Source.FACE));
                faces++;
            }
        }
        return new RedactionPlan(input, Digests.sha256Hex(bytes), in, out, request.strip(), picture.width(), picture.height(),
                picture.orientation(), regions, faces, new RedactionPlan.Source(bytes, picture, EarlierCredentials.chain(bytes)));
    }

    private static FaceDetector detector(Path model) {
        try {
            return FaceDetector.open(model);
        } catch (FaceDetector.Unavailable e) {
            throw new ProofModeException(e.modelMissing() ? Failure.INPUT_MISSING : Failure.UNSUPPORTED, e.getMessage()
                    + (e.modelMissing() ? " (install Debian's opencv-data, or give --face-model FILE)" : ""), e);
        } catch (NoClassDefFoundError e) {
            throw new ProofModeException(Failure.UNSUPPORTED, FaceDetector.OPENCV_MISSING, e);
        }
    }

    /**
     * Writes the copy and proves it with its record.
     *
     * @param plan a plan from {@link #plan}, not written before
     * @param output where the copy goes
     * @param force whether an existing file may be replaced
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if {@code output} exists and {@code force}
     *     is false, {@link Failure#IO} if it cannot be written, or as {@link Prover#prove}
     */
    public RedactionResult write(RedactionPlan plan, Path output, boolean force) {
        return write(plan, output, force, Optional.empty());
    }

    /**
     * Writes the copy, with content credentials when {@code seal} is given, and proves it with its record.
     * The manifest is embedded first, so the proof and the record's hash cover the file as written.
     *
     * @param seal who signs the copy's C2PA manifest ({@link RedactionManifest}), or empty for none
     * @throws ProofModeException as {@link #write(RedactionPlan, Path, boolean)}, and with
     *     {@link Failure#BAD_DATA} if the manifest cannot be embedded
     */
    public RedactionResult write(RedactionPlan plan, Path output, boolean force, Optional<C2paSeal> seal) {
        if (!force && Files.exists(output)) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force to replace it)");
        }
        byte[] original = plan.source().bytes;
        Picture picture = plan.source().take();
        for (Region r : plan.regions()) {
            switch (r.method()) {
                case PIXELATE -> picture.pixelate(r.box());
                case BLUR -> picture.blur(r.box());
                case FILL -> picture.fill(r.box());
                default -> throw new IllegalStateException(r.method().name());
            }
        }
        byte[] copy = picture.encode(plan.outputFormat());
        if (plan.outputFormat() == ImageFormat.JPEG) {
            try {
                copy = ExifWriteBack.copy(original, copy, plan.strip().kept()).jpeg();
            } catch (IOException e) {
                throw new ProofModeException(Failure.INTERNAL, "cannot write EXIF into the copy: " + e.getMessage(), e);
            }
        }
        MetadataInventory before = MetadataInventory.of(original);
        MetadataInventory after = MetadataInventory.of(copy);
        List<String> removed = before.minus(after);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        if (seal.isPresent()) {
            copy = credentialed(plan, output, copy, !removed.isEmpty(), seal.get(), now);
            after = MetadataInventory.of(copy);
        }
        String h = Digests.sha256Hex(copy);
        RedactionRecord record = new RedactionRecord(
                new RedactionRecord.Image(h, plan.outputFormat().mimeType(), plan.width(), plan.height()),
                new RedactionRecord.Original(new RedactionRecord.Image(plan.sha256(), plan.inputFormat().mimeType(), plan.width(),
                        plan.height()), plan.orientation(), signerOf(plan.sha256())),
                plan.regions(), plan.strip(), removed, after.lines(), Prover.SOFTWARE, now);
        try {
            AtomicFiles.write(output, copy, force, false);
        } catch (FileAlreadyExistsException e) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force to replace it)", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + output + ": " + e.getMessage(), e);
        }
        List<Prover.Attachment> attachments = List.of(new Prover.Attachment(ProofFiles.REDACTION, RedactionJson.write(record)));
        ProveResult proved = prover.prove(output, new Prover.Options(Optional.empty(), false, n -> { }), attachments);
        boolean kept = true;
        if (proved.outcome() == ProveResult.Outcome.EXISTING
                && !store.set(proved.proofFolder().orElseThrow(), h).has(ProofFiles.redaction(h))) {
            // A proof of these exact bytes without a record (proved by hand before): replace it by one with the record.
            proved = prover.prove(output, new Prover.Options(Optional.empty(), true, n -> { }), attachments);
            kept = false;
        }
        if (!proved.sha256().orElse("").equals(h)) {
            throw new ProofModeException(Failure.IO, output + ": changed while it was being proved");
        }
        return new RedactionResult(output, h, record, proved.proofFolder().orElseThrow(),
                kept && proved.outcome() == ProveResult.Outcome.EXISTING);
    }

    private static byte[] credentialed(RedactionPlan plan, Path output, byte[] copy, boolean metadataRemoved, C2paSeal seal,
            Instant now) {
        ManifestBuilder manifest = RedactionManifest.of(plan, output.getFileName().toString(), metadataRemoved,
                seal.pgpFingerprint(), Digests.sha256Hex(copy), now);
        plan.source().chain.ifPresent(c -> manifest.onTopOf(c.redact(plan.credentialsRedacted().stream()
                .map(ManifestChain.Revealing::url).toList())));
        try {
            return manifest.sign(copy, seal.signer(), seal.tsa());
        } catch (C2paFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, output + ": cannot embed content credentials: " + e.getMessage(), e);
        }
    }

    /** The signer of the original's proof in the store, if there is one. */
    private Optional<String> signerOf(String sha256) {
        return store.canRead() ? store.set(sha256).flatMap(ProofSigner::of) : Optional.empty();
    }

    private static byte[] read(Path input) {
        InputFiles.requireRegular(input, "media file");
        try {
            if (Files.size(input) > MAX_INPUT_BYTES) {
                throw new ProofModeException(Failure.UNSUPPORTED, input + ": larger than " + (MAX_INPUT_BYTES >> 20) + " MiB");
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, input + ": cannot read: " + e.getMessage(), e);
        }
        return InputFiles.read(input, MAX_INPUT_BYTES, "media file");
    }
}
