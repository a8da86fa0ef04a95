// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Checks a manifest's hard binding to the asset's content, whatever its kind: {@code c2pa.hash.data}
 * (with the exclusion rules of C2PA 2.x: one exclusion is exactly the manifest store's bytes),
 * {@code c2pa.hash.bmff} 1.0, {@code .v2} and {@code .v3} (see {@link BmffHash}), {@code c2pa.hash.boxes}
 * over JPEG and PNG (see {@link BoxHash}). Any other kind ({@code c2pa.hash.boxes} over another format,
 * {@code c2pa.hash.collection.data}, Merkle maps over unfragmented sample data) is reported {@link Codes#HARD_BINDING_UNCHECKED}, which keeps the manifest from being valid.
 */
final class HardBindings {
    private HardBindings() {}

    /**
     * The statuses of the hard binding.
     *
     * @param m the manifest
     * @param label the hard binding assertion's label
     * @param url its absolute JUMBF URI
     * @param src the asset
     * @param found the embedded store and where it sits
     * @param format the asset's format
     * @param throughUpdate whether the binding is read through an update manifest, whose store grew in
     *     place after this binding was signed (see {@link UpdateManifests})
     */
    static List<C2paStatus> check(Manifest m, String label, String url, ByteSource src, EmbeddedStore found,
            AssetFormat format, boolean throughUpdate) throws IOException {
        List<C2paStatus> out = new ArrayList<>();
        Optional<JsonNode> content = m.assertion(label).flatMap(AssertionData::cbor);
        if (isKind(label, DataHash.LABEL)) {
            dataHash(m, content, url, src, found, format, throughUpdate, out);
        } else if (isKind(label, BmffHash.LABEL) || isKind(label, BmffHash.LABEL + ".v2") || isKind(label, BmffHash.LABEL + ".v3")) {
            bmff(m, content, label, url, src, out);
        } else if (isKind(label, BoxHash.LABEL) && content.isPresent()) {
            out.addAll(BoxHash.check(src, format, content.get(), m.defaultAlg(), url));
        } else {
            out.add(new C2paStatus(Codes.HARD_BINDING_UNCHECKED, Outcome.INFORMATIONAL, label
                    + " is not checked by this reader: nothing shows that the content is the one signed", url));
        }
        return out;
    }

    /** Tells whether a label is of this kind ({@code c2pa.hash.data} or {@code c2pa.hash.data__2}). */
    static boolean isKind(String label, String kind) {
        return label.equals(kind) || label.startsWith(kind + "__");
    }

    private static void dataHash(Manifest m, Optional<JsonNode> content, String url, ByteSource src, EmbeddedStore found,
            AssetFormat format, boolean throughUpdate, List<C2paStatus> out) throws IOException {
        try {
            JsonNode dh = content.orElseThrow(() -> new C2paFormatException("data hash assertion unreadable"));
            List<DataHash.Range> ex = DataHash.exclusions(dh, src.size());
            if (throughUpdate) {
                ex = UpdateManifests.adjust(ex, src, format);
            }
            byte[] expected = dh.path("hash").binaryValue();
            if (expected == null) {
                throw new C2paFormatException("data hash assertion has no hash");
            }
            MessageDigest md = DataHash.digest(dh.path("alg").asText(m.defaultAlg()));
            Optional<String> misplaced = DataHash.exclusionProblem(ex, found.location());
            if (misplaced.isPresent()) {
                out.add(new C2paStatus(Codes.DATA_HASH_MISMATCH, Outcome.FAILURE, misplaced.get(), url));
                return;
            }
            if (ex.size() > 1) {
                out.add(new C2paStatus(Codes.DATA_HASH_ADDITIONAL_EXCLUSIONS, Outcome.INFORMATIONAL,
                        "the data hash excludes " + (ex.size() - 1) + " ranges besides the manifest store", url));
            }
            byte[] actual = DataHash.hash(src, ex, md);
            if (MessageDigest.isEqual(expected, actual)) {
                out.add(new C2paStatus(Codes.DATA_HASH_MATCH, Outcome.SUCCESS, "data hash valid", url));
            } else {
                out.add(new C2paStatus(Codes.DATA_HASH_MISMATCH, Outcome.FAILURE, "asset hash does not match the data hash assertion", url));
            }
        } catch (C2paFormatException | NoSuchAlgorithmException e) {
            out.add(new C2paStatus(Codes.DATA_HASH_MALFORMED, Outcome.FAILURE, e.getMessage(), url));
        }
    }

    private static void bmff(Manifest m, Optional<JsonNode> content, String label, String url, ByteSource src, List<C2paStatus> out)
            throws IOException {
        if (content.isEmpty()) {
            out.add(new C2paStatus(Codes.BMFF_HASH_MALFORMED, Outcome.FAILURE, "BMFF hash assertion unreadable", url));
            return;
        }
        BmffHash.Result r = BmffHash.check(src, content.get(), BmffHash.version(label), m.defaultAlg());
        out.add(switch (r.verdict()) {
            case MATCH -> new C2paStatus(Codes.BMFF_HASH_MATCH, Outcome.SUCCESS, r.message(), url);
            case MISMATCH -> new C2paStatus(Codes.BMFF_HASH_MISMATCH, Outcome.FAILURE, r.message(), url);
            case MALFORMED -> new C2paStatus(Codes.BMFF_HASH_MALFORMED, Outcome.FAILURE, r.message(), url);
            case UNCHECKED -> new C2paStatus(Codes.HARD_BINDING_UNCHECKED, Outcome.INFORMATIONAL,
                    r.message() + ": nothing shows that the content is the one signed", url);
        });
    }
}
