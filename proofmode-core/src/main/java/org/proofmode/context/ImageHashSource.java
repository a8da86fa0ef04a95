// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.util.Optional;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.media.JpegStructure;
import org.proofmode.media.MediaKind;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * Adds {@code Image.PixelHash} and {@code Image.PerceptualHash} to proofs of JPEG, PNG, GIF, BMP and
 * TIFF images (see {@link ImageHashes}). Other images get a warning saying why they have none; video and
 * audio get nothing.
 */
public final class ImageHashSource implements MetadataSource {
    @Override
    public String name() {
        return "Image";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) throws IOException {
        if (media.type().kind() != MediaKind.IMAGE) {
            return;
        }
        if (!ImageHashes.decodes(media.type().mimeType())) {
            record.warn(name(), "pixel and perceptual hashes are not computed for " + media.type().mimeType());
            return;
        }
        if (media.type().mimeType().equals("image/jpeg")) {
            Optional<String> broken = JpegStructure.problem(media.path());
            if (broken.isPresent()) {
                record.warn(name(), "not a well-formed JPEG (" + broken.get() + "); not decoded");
                return;
            }
        }
        try {
            ImageHashes.Result r = ImageHashes.of(media.path());
            record.put(ContextFields.IMAGE_PIXEL_HASH, r.pixelHash());
            record.put(ContextFields.IMAGE_PERCEPTUAL_HASH, r.perceptualHex());
        } catch (ImageHashes.NotHashed e) {
            record.warn(name(), e.getMessage());
        }
    }
}
