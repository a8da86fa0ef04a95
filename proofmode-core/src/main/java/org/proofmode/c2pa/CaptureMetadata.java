// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.proofmode.proof.ProofFields;

/**
 * The capture context of a proof record as a {@code c2pa.metadata} assertion (JSON-LD). Only fields the
 * C2PA specification allows there are written (camera make and model, lens, software, capture time,
 * GPS position), and only those the record holds: the record already follows the privacy settings, so
 * a location appears only when location recording is on.
 */
public final class CaptureMetadata {
    /** The assertion label. */
    public static final String LABEL = "c2pa.metadata";
    private static final Map<String, String> CONTEXT = Map.of(
            "exif", "http://ns.adobe.com/exif/1.0/",
            "exifEX", "http://cipa.jp/exif/1.0/",
            "tiff", "http://ns.adobe.com/tiff/1.0/",
            "xmp", "http://ns.adobe.com/xap/1.0/");

    private CaptureMetadata() {}

    /** The assertion's JSON-LD for a record's fields. */
    public static ObjectNode of(Map<String, String> record) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        ObjectNode ctx = n.putObject("@context");
        CONTEXT.forEach(ctx::put);
        n.put("xmp:CreatorTool", ManifestBuilder.GENERATOR);
        copy(record, "EXIF.Make", n, "tiff:Make");
        copy(record, "EXIF.Model", n, "tiff:Model");
        copy(record, "EXIF.Software", n, "tiff:Software");
        copy(record, "EXIF.LensModel", n, "exifEX:LensModel");
        copy(record, "EXIF.DateTimeOriginal", n, "exif:DateTimeOriginal");
        copy(record, ProofFields.PROOF_GENERATED, n, "xmp:MetadataDate");
        coordinate(record.get(ProofFields.LOCATION_LATITUDE), 'N', 'S').ifPresent(v -> n.put("exif:GPSLatitude", v));
        coordinate(record.get(ProofFields.LOCATION_LONGITUDE), 'E', 'W').ifPresent(v -> n.put("exif:GPSLongitude", v));
        if (n.has("exif:GPSLatitude") && n.has("exif:GPSLongitude")) {
            copy(record, ProofFields.LOCATION_ACCURACY, n, "exif:GPSHPositioningError");
            copy(record, ProofFields.LOCATION_TIME, n, "exif:GPSTimeStamp");
        }
        return n;
    }

    private static void copy(Map<String, String> record, String field, ObjectNode n, String name) {
        String v = record.get(field);
        if (v != null && !v.isBlank()) {
            n.put(name, v);
        }
    }

    /** XMP's GPS coordinate form: {@code DDD,MM.mmmmmmK}. */
    static Optional<String> coordinate(String decimal, char positive, char negative) {
        if (decimal == null) {
            return Optional.empty();
        }
        double d;
        try {
            d = Double.parseDouble(decimal.trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (!Double.isFinite(d) || Math.abs(d) > 180) {
            return Optional.empty();
        }
        double a = Math.abs(d);
        int deg = (int) a;
        double min = (a - deg) * 60;
        return Optional.of(String.format(Locale.ROOT, "%d,%.6f%c", deg, min, d < 0 ? negative : positive));
    }
}
