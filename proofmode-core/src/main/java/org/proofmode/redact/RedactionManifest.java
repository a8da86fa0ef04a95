// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.Ingredient;
import org.proofmode.c2pa.ManifestBuilder;

/**
 * The C2PA manifest of a redacted copy: the original as a {@code parentOf} ingredient (opened), one
 * {@code c2pa.edited} action whose changes are the hidden rectangles, {@code c2pa.edited.metadata} when
 * metadata was removed, and {@code org.proofmode.proof}, which ties it to the copy's OpenPGP proof.
 *
 * <p>Why {@code c2pa.edited} for the regions: hiding pixels is an editorial change of the content, which
 * regions of interest describe; {@code c2pa.redacted} is for assertions removed from an earlier manifest
 * (its {@code redacted} parameter names the assertion), which {@link Redactor} adds when the original has
 * content credentials of its own ({@link EarlierCredentials}).
 *
 * <p>Privacy: the manifest carries no capture metadata at all (no location, device, time of capture),
 * whatever the strip policy kept in the file's EXIF; the ingredient names the original by SHA-256 and a
 * neutral title ({@code original.jpg}), never its file name; removed metadata is not listed.
 */
final class RedactionManifest {
    private RedactionManifest() {}

    static ManifestBuilder of(RedactionPlan plan, String title, boolean metadataRemoved, String pgpFingerprint,
            String copySha256, Instant time) {
        Ingredient parent = new Ingredient("original." + (plan.inputFormat().mimeType().endsWith("png") ? "png" : "jpg"),
                plan.inputFormat().mimeType(), HexFormat.of().parseHex(plan.sha256()));
        List<ManifestBuilder.Change> changes = new ArrayList<>();
        for (Region r : plan.regions()) {
            changes.add(new ManifestBuilder.Change(r.box().x(), r.box().y(), r.box().width(), r.box().height(),
                    describe(r.method()) + (r.source() == Region.Source.FACE ? " (detected face)" : "")));
        }
        ManifestBuilder b = new ManifestBuilder().title(title).parent(parent);
        if (!changes.isEmpty()) {
            b.edited("c2pa.edited", "redacted: " + changes.size() + (changes.size() == 1 ? " region" : " regions")
                    + " hidden irreversibly", changes);
        }
        if (metadataRemoved) {
            b.edited("c2pa.edited.metadata", "identifying metadata removed (strip " + plan.strip().id() + ")", List.of());
        }
        return b.cborAssertion(ContentCredentials.PROOF_ASSERTION,
                ContentCredentials.proofLink(pgpFingerprint, copySha256, Optional.of(time.toString())));
    }

    private static String describe(Method m) {
        return switch (m) {
            case PIXELATE -> "pixelated";
            case BLUR -> "blurred";
            case FILL -> "filled black";
        };
    }
}
