// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Map;
import org.proofmode.i18n.Texts;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.verify.ContextSummary;

/**
 * The one table of plain names for the record fields a report shows by themselves (content hashes and
 * times), so that a reader sees "Pixel hash of the image", not {@code Image.PixelHash}, and for the lines of
 * the context summary ({@link ContextSummary}); the names themselves are the {@code plain.*} texts of the
 * report's language. Both renderers show the names of the blocks {@link ReportBuilder} makes with it.
 */
public final class PlainNames {
    private static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry(ContextFields.IMAGE_PIXEL_HASH, "plain.pixelHash"),
            Map.entry(ContextFields.IMAGE_PERCEPTUAL_HASH, "plain.perceptualHash"),
            Map.entry(ContextFields.VIDEO_FRAME_HASH, "plain.frameHash"),
            Map.entry(ContextFields.VIDEO_FRAME_COUNT, "plain.frameCount"),
            Map.entry(ContextFields.AUDIO_SAMPLE_HASH, "plain.sampleHash"),
            Map.entry(ContextFields.MEDIA_DECODER, "plain.decoder"),
            Map.entry(ProofFields.PROOF_GENERATED, "plain.proofMade"),
            Map.entry(ProofFields.FILE_CREATED, "plain.fileCreated"),
            Map.entry(ProofFields.FILE_MODIFIED, "plain.fileModified"),
            Map.entry(ProofFields.LOCATION_TIME, "plain.locationTime"),
            Map.entry("CurrentDateTime0GMT", "plain.cameraVProofMade"),
            Map.entry("Modified", "plain.cameraVModified"));

    private PlainNames() {}

    /** The plain name of a record field in the texts' language, or the field's own name when the table has none. */
    static String of(String field, Texts x) {
        String key = KEYS.get(field);
        return key == null ? field : x.get(key);
    }

    /**
     * The plain name of every record field the table knows, in the texts' language, keyed by the field's own name
     * (the server's page names a proof's times with them, as the report does).
     */
    public static Map<String, String> all(Texts x) {
        Map<String, String> names = new java.util.TreeMap<>();
        KEYS.forEach((field, key) -> names.put(field, x.get(key)));
        return names;
    }

    /** The name of a line of the context summary ({@link ContextSummary#of}) in the texts' language. */
    static String label(String key, Texts x) {
        return x.own("plain.label." + key).or(() -> Texts.of(org.proofmode.i18n.Language.EN).own("plain.label." + key))
                .orElseGet(() -> ContextSummary.label(key));
    }
}
