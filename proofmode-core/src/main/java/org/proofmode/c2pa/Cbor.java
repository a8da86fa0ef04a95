// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * CBOR for C2PA, on Jackson's CBOR codec: reading with bounds into a tree, writing a tree with
 * definite lengths (what C2PA readers expect and what hashes are computed over).
 *
 * <p>Integer map keys (COSE headers) read as their decimal text ({@code "1"}, {@code "33"}).
 */
public final class Cbor {
    /** Deepest nesting of arrays and maps accepted. */
    public static final int MAX_DEPTH = 32;
    private static final ObjectMapper MAPPER = new CBORMapper(CBORFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(Jumbf.MAX_STORE_BYTES)
                    .maxDocumentLength(Jumbf.MAX_STORE_BYTES)
                    .build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Cbor() {}

    /** A new empty map node. */
    public static ObjectNode map() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * Reads one CBOR data item that fills {@code bytes}.
     *
     * @throws C2paFormatException if the bytes are not one well-formed item within the bounds
     */
    public static JsonNode read(byte[] bytes) throws C2paFormatException {
        if (bytes.length == 0) {
            throw new C2paFormatException("empty CBOR");
        }
        try {
            JsonNode n = MAPPER.readTree(bytes);
            if (n == null || n.isMissingNode()) {
                throw new C2paFormatException("no CBOR data item");
            }
            checkText(n);
            return n;
        } catch (IOException e) {
            throw new C2paFormatException("malformed CBOR: " + e.getMessage(), e);
        }
    }

    /** Rejects text (values and keys) that is not well-formed Unicode, such as lone surrogates. */
    private static void checkText(JsonNode n) throws C2paFormatException {
        if (n.isTextual()) {
            checkText(n.textValue());
        } else if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                checkText(e.getKey());
                checkText(e.getValue());
            }
        } else if (n.isArray()) {
            for (JsonNode c : n) {
                checkText(c);
            }
        }
    }

    private static void checkText(String s) throws C2paFormatException {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new C2paFormatException("CBOR text is not well-formed UTF-8");
            }
        }
    }

    /** Writes a tree as CBOR with definite lengths. */
    public static byte[] write(JsonNode node) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CBORGenerator g = (CBORGenerator) MAPPER.getFactory().createGenerator(out)) {
            write(g, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static void write(CBORGenerator g, JsonNode n) throws IOException {
        if (n.isObject()) {
            g.writeStartObject(n, n.size());
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (n.isArray()) {
            g.writeStartArray(n, n.size());
            for (JsonNode c : n) {
                write(g, c);
            }
            g.writeEndArray();
        } else if (n.isBinary()) {
            g.writeBinary(n.binaryValue());
        } else if (n.isTextual()) {
            g.writeString(n.textValue());
        } else if (n.isIntegralNumber()) {
            if (n.canConvertToLong()) {
                g.writeNumber(n.longValue());
            } else {
                g.writeNumber(n.bigIntegerValue());
            }
        } else if (n.isFloat()) {
            g.writeNumber(n.floatValue());
        } else if (n.isBigDecimal()) {
            g.writeNumber(n.decimalValue());
        } else if (n.isNumber()) {
            g.writeNumber(n.doubleValue());
        } else if (n.isBoolean()) {
            g.writeBoolean(n.booleanValue());
        } else if (n.isNull()) {
            g.writeNull();
        } else {
            throw new IllegalArgumentException("cannot write a " + n.getNodeType() + " as CBOR");
        }
    }

    /** Writes hand-built items (COSE structures with integer keys and tags). */
    @FunctionalInterface
    interface Items {
        /** Writes the items. */
        void write(CBORGenerator g) throws IOException;
    }

    /** The bytes of hand-built items. */
    static byte[] encode(Items items) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CBORGenerator g = (CBORGenerator) MAPPER.getFactory().createGenerator(out)) {
            items.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
