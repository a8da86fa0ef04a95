// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Hex;

/**
 * Reads and writes {@code .proof.csv}: a header row and a value row with the same field names as the
 * JSON. Reading also accepts the app's variants: rows appended when a file is proved again, a header
 * repeated before appended rows, any column order, and the trailing comma the app writes.
 */
public final class ProofCsv {
    /** Most records read from one file. */
    public static final int MAX_RECORDS = 10_000;

    private static final CSVFormat WRITE = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get();
    private static final CSVFormat READ = CSVFormat.DEFAULT.builder().setIgnoreEmptyLines(true).get();
    private static final Set<String> HEADER_MARKERS = Set.of(
            ProofFields.FILE_HASH_SHA256, "SHA256", ProofFields.FILE_PATH, "File", ProofFields.PROOF_GENERATED,
            "CurrentDateTime0GMT");

    private ProofCsv() {}

    /** Writes a header row and one value row, in field order. */
    public static byte[] write(ProofRecord record) {
        StringWriter out = new StringWriter();
        try (CSVPrinter p = new CSVPrinter(out, WRITE)) {
            p.printRecord(record.fields().keySet());
            p.printRecord(record.fields().values());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads every value row, each under the header row that precedes it.
     *
     * @param bytes the file content
     * @param name the file name, for messages
     * @return at least one record
     * @throws ProofModeException with {@link Failure#BAD_DATA} if there is no header or no value row
     */
    public static List<ProofRecord> read(byte[] bytes, String name) {
        List<ProofRecord> records = new ArrayList<>();
        List<String> header = null;
        boolean afterHeader = false;
        try (CSVParser parser = CSVParser.parse(new StringReader(new String(bytes, StandardCharsets.UTF_8)), READ)) {
            for (CSVRecord row : parser) {
                List<String> cells = trimTrailingEmpty(row.toList());
                // The first row is the header; a later one is a header again only if it repeats one
                // (the app writes the header again before rows it appends), never right after a header.
                if (header == null && !isRepeatedHeader(cells) && cells.stream().anyMatch(c -> Hex.isSha256(c.trim()))) {
                    throw new ProofModeException(Failure.BAD_DATA, name + ": no header row before the first value row");
                }
                if (header == null || !afterHeader && isRepeatedHeader(cells)) {
                    header = cells;
                    afterHeader = true;
                    continue;
                }
                afterHeader = false;
                records.add(toRecord(header, cells));
                if (records.size() > MAX_RECORDS) {
                    throw new ProofModeException(Failure.BAD_DATA, name + ": more than " + MAX_RECORDS + " rows");
                }
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": not valid CSV (" + e.getMessage() + ")", e);
        }
        if (records.isEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": no proof row in it");
        }
        return records;
    }

    /** A header names a known field and, unlike every value row of a proof, holds no SHA-256. */
    private static boolean isRepeatedHeader(List<String> cells) {
        boolean marker = false;
        for (String c : cells) {
            if (Hex.isSha256(c.trim())) {
                return false;
            }
            marker |= HEADER_MARKERS.contains(c);
        }
        return marker;
    }

    private static ProofRecord toRecord(List<String> header, List<String> cells) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String key = header.get(i);
            if (key.isEmpty()) {
                continue;
            }
            fields.put(key, i < cells.size() ? cells.get(i) : "");
        }
        for (int i = header.size(); i < cells.size(); i++) {
            if (!cells.get(i).isEmpty()) {
                fields.put("Column." + (i + 1), cells.get(i));
            }
        }
        return ProofRecord.of(fields);
    }

    private static List<String> trimTrailingEmpty(List<String> cells) {
        int end = cells.size();
        if (end > 0 && cells.get(end - 1).isEmpty()) {
            end--;
        }
        return cells.subList(0, end);
    }
}
