// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.Box;
import org.proofmode.proof.ProofTimes;

/**
 * Reads and writes {@code <h>.redaction.json}. Reading is strict: a missing or mistyped field, an unknown
 * method or a region outside the image makes the record malformed.
 */
public final class RedactionJson {
    /** The {@code type} field of every redaction record. */
    public static final String TYPE = "org.proofmode.redaction";

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(8).maxStringLength(1 << 16).maxNumberLength(20).build())
            .build()).enable(SerializationFeature.INDENT_OUTPUT);

    private RedactionJson() {}

    /** Writes a record as indented UTF-8 JSON, fields in a fixed order. */
    public static byte[] write(RedactionRecord r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("type", TYPE);
        root.put("version", RedactionRecord.VERSION);
        root.set("output", image(r.output()));
        ObjectNode o = image(r.original().image());
        o.put("orientation", r.original().orientation());
        r.original().signer().ifPresent(s -> o.put("signer", s));
        root.set("original", o);
        ArrayNode regions = root.putArray("regions");
        for (Region g : r.regions()) {
            ObjectNode n = regions.addObject();
            n.put("x", g.box().x());
            n.put("y", g.box().y());
            n.put("width", g.box().width());
            n.put("height", g.box().height());
            n.put("method", g.method().id());
            n.put("source", g.source().id());
        }
        ObjectNode m = root.putObject("metadata");
        m.put("strip", r.strip().id());
        r.metadataRemoved().forEach(m.putArray("removed")::add);
        r.metadataKept().forEach(m.putArray("kept")::add);
        root.put("software", r.software());
        root.put("created", ProofTimes.format(r.created()));
        try {
            byte[] json = MAPPER.writeValueAsBytes(root);
            byte[] out = Arrays.copyOf(json, json.length + 1);
            out[json.length] = '\n';
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to memory failed", e);
        }
    }

    private static ObjectNode image(RedactionRecord.Image i) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("sha256", i.sha256());
        n.put("mediaType", i.mediaType());
        n.put("width", i.width());
        n.put("height", i.height());
        return n;
    }

    /**
     * Reads a record.
     *
     * @param name the file name, for messages
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is not a valid redaction record
     */
    public static RedactionRecord read(byte[] bytes, String name) {
        try {
            JsonNode root = MAPPER.readTree(bytes);
            if (root == null || !root.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            if (!TYPE.equals(text(root, "type"))) {
                throw new IllegalArgumentException("type is not " + TYPE);
            }
            int version = integer(root, "version");
            if (version != RedactionRecord.VERSION) {
                throw new ProofModeException(Failure.UNSUPPORTED, name + ": redaction record version " + version
                        + " is not supported (this version reads " + RedactionRecord.VERSION + ")");
            }
            JsonNode o = object(root, "original");
            Optional<String> signer = o.has("signer") ? Optional.of(text(o, "signer")) : Optional.empty();
            RedactionRecord.Original original = new RedactionRecord.Original(image(o), integer(o, "orientation"), signer);
            List<Region> regions = new ArrayList<>();
            JsonNode rs = array(root, "regions");
            if (rs.size() > RedactionRecord.MAX_REGIONS) {
                throw new IllegalArgumentException("more than " + RedactionRecord.MAX_REGIONS + " regions");
            }
            for (JsonNode g : rs) {
                regions.add(new Region(new Box(integer(g, "x"), integer(g, "y"), integer(g, "width"), integer(g, "height")),
                        Method.of(text(g, "method")), Region.Source.of(text(g, "source"))));
            }
            JsonNode m = object(root, "metadata");
            Instant created = ProofTimes.parse(text(root, "created"))
                    .orElseThrow(() -> new IllegalArgumentException("created is not a time"));
            return new RedactionRecord(image(object(root, "output")), original, regions, StripPolicy.of(text(m, "strip")),
                    strings(m, "removed"), strings(m, "kept"), text(root, "software"), created);
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": not a valid redaction record: " + e.getMessage(), e);
        }
    }

    private static RedactionRecord.Image image(JsonNode n) {
        return new RedactionRecord.Image(text(n, "sha256"), text(n, "mediaType"), integer(n, "width"), integer(n, "height"));
    }

    private static JsonNode field(JsonNode n, String f) {
        JsonNode v = n.get(f);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field " + f);
        }
        return v;
    }

    private static String text(JsonNode n, String f) {
        JsonNode v = field(n, f);
        if (!v.isTextual()) {
            throw new IllegalArgumentException(f + " is not a string");
        }
        return v.asText();
    }

    private static int integer(JsonNode n, String f) {
        JsonNode v = field(n, f);
        if (!v.isInt()) {
            throw new IllegalArgumentException(f + " is not an integer");
        }
        return v.intValue();
    }

    private static JsonNode object(JsonNode n, String f) {
        JsonNode v = field(n, f);
        if (!v.isObject()) {
            throw new IllegalArgumentException(f + " is not an object");
        }
        return v;
    }

    private static JsonNode array(JsonNode n, String f) {
        JsonNode v = field(n, f);
        if (!v.isArray()) {
            throw new IllegalArgumentException(f + " is not a list");
        }
        return v;
    }

    private static List<String> strings(JsonNode n, String f) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : array(n, f)) {
            if (!v.isTextual()) {
                throw new IllegalArgumentException(f + " holds a value that is not a string");
            }
            out.add(v.asText());
        }
        return out;
    }
}
