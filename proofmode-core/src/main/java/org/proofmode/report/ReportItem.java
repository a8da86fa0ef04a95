// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.imaging.ImageFormat;
import org.proofmode.imaging.Picture;
import org.proofmode.proof.ProofFields;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.VerificationReport;

/**
 * One verified item of a report: its verification, the names of the files it came in (for the commands
 * that redo the checks), and a thumbnail of each proof's media that could be decoded.
 *
 * @param name what the item is called in the report (the bundle's file name)
 * @param report its verification, as {@code verify} gives it
 * @param entries the bundle's file names, as they are after unpacking it
 * @param thumbnails pictures of the media, by proof id: a thumbnail of an image, key frames of a video
 * @param custody the item's chain of custody on an evidence server, oldest first; empty elsewhere
 */
public record ReportItem(String name, VerificationReport report, List<String> entries, Map<String, List<Block.Picture>> thumbnails,
        List<CustodyLine> custody) {
    /** Longer side of a thumbnail, in pixels. */
    public static final int THUMBNAIL_SIDE = 640;

    /** Larger images get no thumbnail. */
    private static final long MAX_IMAGE_BYTES = 64L << 20;

    /** Validates and copies the fields. */
    public ReportItem {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(report, "report");
        entries = List.copyOf(entries);
        thumbnails = thumbnails.entrySet().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> List.copyOf(e.getValue())));
        custody = List.copyOf(custody);
    }

    /** The same item with its chain of custody. */
    public ReportItem withCustody(List<CustodyLine> lines) {
        return new ReportItem(name, report, entries, thumbnails, lines);
    }

    /**
     * Reads what a report needs from the bundle that was verified: its file names and a thumbnail of each
     * proof's media that is an image this version decodes (never more pixels than the verifier's bound).
     *
     * @param name what the item is called
     * @param report the bundle's verification
     * @param bundle the same bundle, open
     */
    public static ReportItem of(String name, VerificationReport report, Bundle bundle) {
        return of(name, report, bundle, Language.EN);
    }

    /**
     * Reads what a report needs from the bundle, the pictures' text alternatives in the report's language.
     *
     * @param language the language of the report
     * @see #of(String, VerificationReport, Bundle)
     */
    public static ReportItem of(String name, VerificationReport report, Bundle bundle, Language language) {
        Texts x = Texts.of(language);
        Map<String, List<Block.Picture>> thumbs = new HashMap<>();
        for (ProofReport p : report.proofs()) {
            Optional<BundleEntry> media = p.media().flatMap(m -> bundle.entries().stream().filter(e -> e.fileName().equals(m)).findFirst());
            if (media.isEmpty()) {
                continue;
            }
            String type = p.record().getOrDefault(ProofFields.FILE_MEDIA_TYPE, "");
            List<Block.Picture> pictures = type.startsWith("video/") ? KeyFrames.of(media.get(), x) : thumbnail(media.get(), x).stream().toList();
            if (!pictures.isEmpty()) {
                thumbs.put(p.id(), pictures);
            }
        }
        return new ReportItem(name, report, bundle.entries().stream().map(BundleEntry::name).toList(), thumbs, List.of());
    }

    private static Optional<Block.Picture> thumbnail(BundleEntry e, Texts x) {
        if (ImageFormat.ofFileName(e.fileName()).isEmpty() || e.size() > MAX_IMAGE_BYTES) {
            return Optional.empty();
        }
        try {
            Picture pic = Picture.decode(e.readSmall(MAX_IMAGE_BYTES)).scaledTo(THUMBNAIL_SIDE);
            return Optional.of(new Block.Picture(pic.encode(ImageFormat.JPEG), pic.width(), pic.height(),
                    x.get("report.thumbnail", e.fileName(), Integer.toString(pic.width()), Integer.toString(pic.height()))));
        } catch (Picture.Undecodable | IOException ex) {
            // The report says there is no picture; the verification already said what is wrong with the file.
            return Optional.empty();
        }
    }
}
