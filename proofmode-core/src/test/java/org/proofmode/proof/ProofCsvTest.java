// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.proofmode.proof.ProofJsonTest.assertSameFieldsInOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.proofmode.TestHomes;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class ProofCsvTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final Path LEGACY_CSV = TestHomes.samples()
            .resolve("proofmode/proofmode-android-sample-proof-1/IMG_20161214_163821.jpg.proof.csv");

    @Property(tries = 500, seed = "20251203")
    void read_returnsWrittenRecord_proofShapedRecord(@ForAll("proofShapedRecords") ProofRecord record) {
        List<ProofRecord> read = ProofCsv.read(ProofCsv.write(record), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Property(tries = 500, seed = "20251203")
    void read_returnsWrittenRecord_anyRecord(@ForAll("anyRecords") ProofRecord record) {
        List<ProofRecord> read = ProofCsv.read(ProofCsv.write(record), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Example
    void read_returnsWrittenRecord_valueEqualsHeaderName() {
        ProofRecord record = record("File Hash SHA256", H, "Notes", "File");

        List<ProofRecord> read = ProofCsv.read(ProofCsv.write(record), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Example
    void read_returnsWrittenRecord_nameWithSurroundingSpace() {
        ProofRecord record = record("File Hash SHA256", H, " Notes", "x");

        List<ProofRecord> read = ProofCsv.read(ProofCsv.write(record), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Example
    void read_returnsWrittenRecord_recordWithoutKnownHeaderName() {
        ProofRecord record = record("Caption", "a photo", "Notes", "x");

        List<ProofRecord> read = ProofCsv.read(ProofCsv.write(record), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Property(tries = 1000, seed = "20251203")
    void read_returnsRecordsOrFailsWithBadData_anyBytes(@ForAll byte[] bytes) {
        assertReadsOrBadData(bytes);
    }

    @Property(tries = 1000, seed = "20251203")
    void read_returnsRecordsOrFailsWithBadData_csvLikeText(@ForAll("csvLikeText") String text) {
        assertReadsOrBadData(text.getBytes(StandardCharsets.UTF_8));
    }

    @Example
    void read_ignoresTrailingComma_appRows() {
        String csv = "File Hash SHA256,Notes,Proof Generated,\n" + H + ",hello,1481751502,\n";

        List<ProofRecord> read = ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "p.proof.csv");

        assertThat(read).hasSize(1);
        assertThat(read.get(0).fields()).containsExactly(
                Map.entry("File Hash SHA256", H), Map.entry("Notes", "hello"), Map.entry("Proof Generated", "1481751502"));
    }

    @Example
    void read_returnsEveryRow_appendedRows() {
        String csv = "File Hash SHA256,Notes,\n" + H + ",first,\n" + H + ",second,\n";

        List<ProofRecord> read = ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "p.proof.csv");

        assertThat(read).extracting(r -> r.get("Notes").orElseThrow()).containsExactly("first", "second");
        assertThat(read).allSatisfy(r -> assertThat(r.mediaHash()).contains(H));
    }

    @Example
    void read_readsEachRowUnderItsHeader_repeatedHeaderWithOtherColumnOrder() {
        String csv = "File Hash SHA256,Notes,Locale,\n" + H + ",first,CAN,\n"
                + "Locale,Notes,File Hash SHA256,\n" + "USA,second," + H + ",\n";

        List<ProofRecord> read = ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "p.proof.csv");

        assertThat(read).hasSize(2);
        assertThat(read.get(0).fields()).containsExactly(
                Map.entry("File Hash SHA256", H), Map.entry("Notes", "first"), Map.entry("Locale", "CAN"));
        assertThat(read.get(1).fields()).containsExactly(
                Map.entry("Locale", "USA"), Map.entry("Notes", "second"), Map.entry("File Hash SHA256", H));
    }

    @Example
    void read_mapsCellsByName_differentColumnOrder() {
        String csv = "Notes,Locale,File Path,File Hash SHA256\nn,CAN,/sdcard/a.jpg," + H + "\n";

        ProofRecord r = ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "p.proof.csv").get(0);

        assertThat(r.mediaHash()).contains(H);
        assertThat(r.get("File Path")).contains("/sdcard/a.jpg");
        assertThat(r.get("Notes")).contains("n");
    }

    @Example
    void read_keepsExtraCells_rowLongerThanHeader() {
        String csv = "File Hash SHA256,Notes\n" + H + ",n,,extra\n";

        ProofRecord r = ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "p.proof.csv").get(0);

        assertThat(r.fields()).containsExactly(
                Map.entry("File Hash SHA256", H), Map.entry("Notes", "n"), Map.entry("Column.4", "extra"));
    }

    @Example
    void read_returnsRecord_2016AppCsv() throws IOException {
        List<ProofRecord> read = ProofCsv.read(Files.readAllBytes(LEGACY_CSV), LEGACY_CSV.getFileName().toString());

        assertThat(read).hasSize(1);
        ProofRecord r = read.get(0);
        assertThat(r.fields()).hasSize(15).doesNotContainKey("Column.16");
        assertThat(r.mediaHash()).contains("ddb8620a20eb4d214a5c495dd4b74c1a6bb6d1754ac0f28e2d1cd5e7e65e073d");
        assertThat(r.first(ProofFields.PATH_ALIASES)).contains("/storage/emulated/0/DCIM/Camera/IMG_20161214_163821.jpg");
        assertThat(r.get("CurrentDateTime0GMT")).contains("1481751502");
        assertThat(r.get("Network")).contains("Wifi");
    }

    @Example
    void read_returnsBothRows_appNoJsonZipCsv() throws IOException {
        Path zip = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/no-json.zip");
        byte[] bytes;
        try (ZipFile z = new ZipFile(zip.toFile())) {
            try (var in = z.getInputStream(z.getEntry(H + ".proof.csv"))) {
                bytes = in.readAllBytes();
            }
        }

        List<ProofRecord> read = ProofCsv.read(bytes, H + ".proof.csv");

        assertThat(read).hasSize(2);
        assertThat(read).allSatisfy(r -> assertThat(r.mediaHash()).contains(H));
        assertThat(read).extracting(r -> r.get("Notes").orElseThrow()).containsExactly("ProofMode v0.0.16-ALPHA-2", ".ots");
        assertThat(read.get(1).get("Proof Generated")).contains("Monday  June 6  2022 10:30:31 a.m. Eastern Daylight Time");
    }

    @Example
    void read_failsWithBadData_2016BatchCsvWithoutHeader() throws IOException {
        Path batch = LEGACY_CSV.resolveSibling("1487917842390batchproof.csv");

        assertBadData(Files.readAllBytes(batch), batch.getFileName().toString());
    }

    @Example
    void read_failsWithBadData_garbage() {
        List<String> garbage = List.of("", "\n\n\n", "just, some, text", "File Hash SHA256,Notes\n",
                "File Hash SHA256\n\"unterminated", "File Hash SHA256,Notes\n\"a\"b,c\n", "{\"a\":\"b\"}");
        for (String g : garbage) {
            assertBadData(g.getBytes(StandardCharsets.UTF_8), "x.proof.csv");
        }
        assertBadData(new byte[] {0, 1, 2, (byte) 0xFF, (byte) 0xFE}, "x.proof.csv");
    }

    @Example
    void read_failsWithBadData_moreRowsThanLimit() {
        String csv = "File Hash SHA256\n" + (H + "\n").repeat(ProofCsv.MAX_RECORDS + 1);

        assertBadData(csv.getBytes(StandardCharsets.UTF_8), "many.proof.csv");
    }

    @Example
    void read_returnsAllRows_exactlyTheLimit() {
        String csv = "File Hash SHA256\n" + (H + "\n").repeat(ProofCsv.MAX_RECORDS);

        assertThat(ProofCsv.read(csv.getBytes(StandardCharsets.UTF_8), "many.proof.csv")).hasSize(ProofCsv.MAX_RECORDS);
    }

    @Provide
    Arbitrary<ProofRecord> proofShapedRecords() {
        return RecordArbitraries.proofShapedRecord();
    }

    @Provide
    Arbitrary<ProofRecord> anyRecords() {
        return RecordArbitraries.anyRecord();
    }

    @Provide
    Arbitrary<String> csvLikeText() {
        return Arbitraries.of(",", "\"", "\n", "\r", "\r\n", "a", " ", "File Hash SHA256", "SHA256", "File", H, "\"\"",
                "\u0000", "é", "#").list().ofMaxSize(30).map(l -> String.join("", l));
    }

    private static ProofRecord record(String... namesAndValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return ProofRecord.of(m);
    }

    private static void assertReadsOrBadData(byte[] bytes) {
        try {
            List<ProofRecord> read = ProofCsv.read(bytes, "fuzz.proof.csv");
            assertThat(read).isNotEmpty();
        } catch (ProofModeException e) {
            assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
            assertThat(e.getMessage()).startsWith("fuzz.proof.csv: ");
        }
    }

    private static void assertBadData(byte[] bytes, String name) {
        assertThatThrownBy(() -> ProofCsv.read(bytes, name))
                .as("reading %s", new String(bytes, StandardCharsets.UTF_8))
                .isInstanceOfSatisfying(ProofModeException.class, e -> {
                    assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
                    assertThat(e.getMessage()).startsWith(name + ": ");
                });
    }
}
