// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Map;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;

/**
 * The one table of plain names for the record fields a report shows by themselves (content hashes and
 * times), so that a reader sees "Pixel hash of the image", not {@code Image.PixelHash}. Both renderers show
 * the names of the blocks {@link ReportBuilder} makes with it.
 */
final class PlainNames {
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry(ContextFields.IMAGE_PIXEL_HASH, "Pixel hash of the image (SHA-256 of its decoded pixels)"),
            Map.entry(ContextFields.IMAGE_PERCEPTUAL_HASH, "Perceptual hash of the image (alike pictures, alike hashes)"),
            Map.entry(ContextFields.VIDEO_FRAME_HASH, "Hash of the video's decoded frames"),
            Map.entry(ContextFields.VIDEO_FRAME_COUNT, "Number of video frames hashed"),
            Map.entry(ContextFields.AUDIO_SAMPLE_HASH, "Hash of the decoded sound"),
            Map.entry(ContextFields.MEDIA_DECODER, "Decoder that read the content"),
            Map.entry(ProofFields.PROOF_GENERATED, "Proof made (as its device recorded)"),
            Map.entry(ProofFields.FILE_CREATED, "File created (as its device recorded)"),
            Map.entry(ProofFields.FILE_MODIFIED, "File last changed (as its device recorded)"),
            Map.entry(ProofFields.LOCATION_TIME, "Time of the location fix"),
            Map.entry("CurrentDateTime0GMT", "Proof made (CameraV, as its device recorded)"),
            Map.entry("Modified", "File last changed (CameraV, as its device recorded)"));

    private PlainNames() {}

    /** The plain name of a record field, or the field's own name when the table has none. */
    static String of(String field) {
        return NAMES.getOrDefault(field, field);
    }
}
