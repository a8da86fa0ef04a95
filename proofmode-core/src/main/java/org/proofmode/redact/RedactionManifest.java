// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.Ingredient;
import org.proofmode.c2pa.ManifestBuilder;

/**
 * The C2PA manifest of a redacted copy: the original as a {@code parentOf} ingredient (opened), one
 * {@code c2pa.edited} action whose changes are the hidden rectangles, {@code c2pa.edited.metadata} when
 * metadata was removed, and {@code org.proofmode.proof}, which ties it to the copy's OpenPGP proof.
 *
 * <p>Why not {@code c2pa.redacted}: the specification defines that action for assertions removed from
 * an ingredient's manifest (its {@code redacted} parameter names the assertion, and validators resolve
 * it); hiding pixels is an editorial change of the content, which {@code c2pa.edited} with regions of
 * interest describes.
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
        ObjectNode proof = JsonNodeFactory.instance.objectNode();
        proof.put("signer", pgpFingerprint);
        proof.put("sourceSha256", copySha256);
        proof.put("time", time.toString());
        proof.put("proofFormat", "proofmode");
        return b.cborAssertion(ContentCredentials.PROOF_ASSERTION, proof);
    }

    private static String describe(Method m) {
        return switch (m) {
            case PIXELATE -> "pixelated";
            case BLUR -> "blurred";
            case FILL -> "filled black";
        };
    }
}
