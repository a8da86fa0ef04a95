// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Reads and writes {@code .proof.json}: one flat JSON object of string values. Reading also accepts
 * what the app writes when it proves a file again: several objects one after another (JSON lines).
 */
public final class ProofJson {
    /** Most records read from one file. */
    public static final int MAX_RECORDS = 10_000;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(8).maxStringLength(1 << 20).maxNumberLength(100).build())
            .build();

    /** Made on first read only: an object mapper costs a fresh process tens of milliseconds that a write never needs. */
    private static final class Mapper {
        static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);
    }

    private ProofJson() {}

    /** Writes one record as a compact JSON object, in field order. */
    public static byte[] write(ProofRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<String, String> e : record.fields().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /**
     * Reads every record in the file, in order.
     *
     * @param bytes the file content
     * @param name the file name, for messages
     * @return at least one record
     * @throws ProofModeException with {@link Failure#BAD_DATA} if this is not a proof JSON
     */
    public static List<ProofRecord> read(byte[] bytes, String name) {
        List<ProofRecord> records = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(bytes)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.START_ARRAY) {
                    continue;
                }
                if (t == JsonToken.END_ARRAY) {
                    continue;
                }
                if (t != JsonToken.START_OBJECT) {
                    throw new ProofModeException(Failure.BAD_DATA, name + ": expected a JSON object, found " + t);
                }
                records.add(readObject(p));
                if (records.size() > MAX_RECORDS) {
                    throw new ProofModeException(Failure.BAD_DATA, name + ": more than " + MAX_RECORDS + " records");
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": not valid JSON (" + firstLine(e.getMessage()) + ")", e);
        }
        if (records.isEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": no proof record in it");
        }
        return records;
    }

    /**
     * The record of a stored proof set, {@code <folder>/<sha256>.proof.json} (its first record).
     *
     * @throws IOException if the file cannot be read
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is not a proof JSON
     */
    public static ProofRecord readStored(Path folder, String sha256) throws IOException {
        Path file = folder.resolve(ProofFiles.json(sha256));
        return read(Files.readAllBytes(file), file.toString()).get(0);
    }

    /**
     * The record of a set in a proof store, plain or encrypted (then read with the store's identity).
     *
     * @param folder the set's folder, as the store or a prover's result names it
     * @throws ProofModeException with {@link Failure#IO} if it cannot be read, {@link Failure#BAD_DATA} if
     *     it is not a proof JSON, {@link Failure#KEY_LOCKED} if the store is encrypted and locked
     */
    public static ProofRecord readStored(ProofStore store, Path folder, String sha256) {
        try {
            if (store.isEncrypted()) {
                byte[] json = store.files(sha256).map(f -> f.get(ProofFiles.json(sha256))).orElseThrow(
                        () -> new ProofModeException(Failure.BAD_DATA, folder + ": the set has no " + ProofFiles.json(sha256)));
                return read(json, folder + " (" + ProofFiles.json(sha256) + ")").get(0);
            }
            return readStored(folder, sha256);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read the proof in " + folder + ": " + e.getMessage(), e);
        }
    }

    private static ProofRecord readObject(JsonParser p) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
            if (t != JsonToken.FIELD_NAME) {
                throw new IOException("expected a field name");
            }
            String name = p.currentName();
            JsonToken v = p.nextToken();
            String value;
            if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                // Nested values are kept as their JSON text; proof records are flat by design.
                value = Mapper.MAPPER.readTree(p).toString();
            } else if (v == JsonToken.VALUE_NULL) {
                value = "";
            } else {
                value = p.getValueAsString();
            }
            fields.put(name, value == null ? "" : value);
        }
        return ProofRecord.of(fields);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "parse error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
