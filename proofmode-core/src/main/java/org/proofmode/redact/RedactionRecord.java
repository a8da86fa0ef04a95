// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.proofmode.util.Hex;

/**
 * What a redaction did, as stored (signed) in {@code <h_out>.redaction.json}: which original, which
 * regions and how, which metadata went. It names the original by hash only, so it reveals nothing of
 * the original's content, and it is the value another provenance writer (a C2PA manifest's redaction
 * assertion, for one) takes as it is.
 *
 * @param output the redacted copy
 * @param original the original it was made from
 * @param regions every redacted region, in the order applied
 * @param strip the metadata policy
 * @param metadataRemoved what the original carried and the copy does not, by directory, e.g.
 *     {@code "GPS: GPS Latitude, GPS Longitude"} or {@code "Exif Thumbnail: ..."}
 * @param metadataKept what the copy still carries, in the same form
 * @param software the tool and its version
 * @param created when the redaction was made
 */
public record RedactionRecord(Image output, Original original, List<Region> regions, StripPolicy strip,
        List<String> metadataRemoved, List<String> metadataKept, String software, Instant created) {
    /** The format version this code writes. */
    public static final int VERSION = 1;
    /** Most regions in one record. */
    public static final int MAX_REGIONS = 10_000;

    /**
     * An image by hash and shape.
     *
     * @param sha256 lower-case hex SHA-256 of the file
     * @param mediaType {@code image/jpeg} or {@code image/png}
     * @param width width as displayed
     * @param height height as displayed
     */
    public record Image(String sha256, String mediaType, int width, int height) {
        /** Validates the fields. */
        public Image {
            Objects.requireNonNull(sha256, "sha256");
            if (!Hex.isSha256(sha256)) {
                throw new IllegalArgumentException("not a SHA-256: " + sha256);
            }
            sha256 = sha256.toLowerCase(Locale.ROOT);
            Objects.requireNonNull(mediaType, "mediaType");
            if (width < 1 || height < 1) {
                throw new IllegalArgumentException("bad size " + width + "x" + height);
            }
        }
    }

    /**
     * The original.
     *
     * @param image its hash, type and displayed size
     * @param orientation the EXIF orientation applied before redacting (1: none)
     * @param signer fingerprint of the key that signed the original's proof, when it had one in the store
     */
    public record Original(Image image, int orientation, Optional<String> signer) {
        /** Validates the fields. */
        public Original {
            Objects.requireNonNull(image, "image");
            if (orientation < 1 || orientation > 8) {
                throw new IllegalArgumentException("bad orientation " + orientation);
            }
            Objects.requireNonNull(signer, "signer");
            signer = signer.map(s -> s.toUpperCase(Locale.ROOT));
        }
    }

    /** Validates and copies the fields. */
    public RedactionRecord {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(original, "original");
        regions = List.copyOf(regions);
        if (regions.size() > MAX_REGIONS) {
            throw new IllegalArgumentException("more than " + MAX_REGIONS + " regions");
        }
        for (Region r : regions) {
            if (!r.box().fitsIn(output.width(), output.height())) {
                throw new IllegalArgumentException("region " + r.box() + " is outside the " + output.width() + "x" + output.height() + " image");
            }
        }
        if (output.width() != original.image().width() || output.height() != original.image().height()) {
            throw new IllegalArgumentException("the copy is " + output.width() + "x" + output.height()
                    + " but the original " + original.image().width() + "x" + original.image().height());
        }
        Objects.requireNonNull(strip, "strip");
        metadataRemoved = List.copyOf(metadataRemoved);
        metadataKept = List.copyOf(metadataKept);
        Objects.requireNonNull(software, "software");
        Objects.requireNonNull(created, "created");
    }

    /** One line for people: how many regions by which method, and the metadata policy. */
    public String summary() {
        Map<String, Integer> counts = new TreeMap<>();
        regions.forEach(r -> counts.merge(r.method().id(), 1, Integer::sum));
        String how = counts.isEmpty() ? "no region" : regions.size() + (regions.size() == 1 ? " region" : " regions") + " ("
                + counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")) + ")";
        return how + "; metadata stripped: " + strip.id();
    }
}
