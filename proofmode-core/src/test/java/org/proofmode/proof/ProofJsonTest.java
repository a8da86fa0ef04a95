// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

class ProofJsonTest {
    private static final String H = "9648aacd684e20540379b9a79a4d4d2bbc761295ddc2e1f1dac87f1468f2e092";

    @Property(tries = 500, seed = "20251203")
    void read_returnsWrittenRecord_anyRecord(@ForAll("records") ProofRecord record) {
        List<ProofRecord> read = ProofJson.read(ProofJson.write(record), "p.proof.json");

        assertThat(read).hasSize(1);
        assertSameFieldsInOrder(read.get(0), record);
    }

    @Property(tries = 200, seed = "20251203")
    void read_returnsEveryRecord_jsonLines(@ForAll("recordLists") List<ProofRecord> records) {
        StringBuilder lines = new StringBuilder();
        for (ProofRecord r : records) {
            lines.append(new String(ProofJson.write(r), StandardCharsets.UTF_8)).append('\n');
        }

        List<ProofRecord> read = ProofJson.read(lines.toString().getBytes(StandardCharsets.UTF_8), "p.proof.json");

        assertThat(read).hasSameSizeAs(records);
        for (int i = 0; i < records.size(); i++) {
            assertSameFieldsInOrder(read.get(i), records.get(i));
        }
    }

    @Property(tries = 1000, seed = "20251203")
    void read_returnsRecordsOrFailsWithBadData_anyBytes(@ForAll byte[] bytes) {
        assertReadsOrBadData(bytes);
    }

    @Property(tries = 1000, seed = "20251203")
    void read_returnsRecordsOrFailsWithBadData_jsonLikeText(@ForAll("jsonLikeText") String text) {
        assertReadsOrBadData(text.getBytes(StandardCharsets.UTF_8));
    }

    @Example
    void read_returnsEveryRecord_objectsConcatenatedWithoutSeparator() {
        byte[] bytes = ("{\"File Hash SHA256\":\"" + H + "\",\"Notes\":\"first\"}"
                + "{\"File Hash SHA256\":\"" + H + "\",\"Notes\":\"second\"}").getBytes(StandardCharsets.UTF_8);

        List<ProofRecord> read = ProofJson.read(bytes, "p.proof.json");

        assertThat(read).extracting(r -> r.get("Notes").orElseThrow()).containsExactly("first", "second");
    }

    @Example
    void read_returnsEveryRecord_prettyPrintedObjectsOneAfterAnother() {
        String one = "{\n    \"File Hash SHA256\": \"" + H + "\",\n    \"Notes\": \"a\"\n}\n";
        String two = "{\n    \"Notes\": \"b\",\n    \"File Hash SHA256\": \"" + H + "\"\n}\n";

        List<ProofRecord> read = ProofJson.read((one + two).getBytes(StandardCharsets.UTF_8), "p.proof.json");

        assertThat(read).hasSize(2);
        assertThat(read.get(1).fields()).containsExactly(Map.entry("Notes", "b"), Map.entry("File Hash SHA256", H));
    }

    @Example
    void read_keepsNonStringValuesAsText_nestedNumbersBooleansAndNull() {
        byte[] bytes = ("{\"CellInfo\":[{\"cellId\":123,\"dbm\":-91}],\"Accuracy\":12.5,\"Mock\":false,\"Time\":null}")
                .getBytes(StandardCharsets.UTF_8);

        ProofRecord r = ProofJson.read(bytes, "p.proof.json").get(0);

        assertThat(r.fields()).containsExactly(
                Map.entry("CellInfo", "[{\"cellId\":123,\"dbm\":-91}]"),
                Map.entry("Accuracy", "12.5"),
                Map.entry("Mock", "false"),
                Map.entry("Time", ""));
    }

    @Example
    void read_returnsAppRecord_appExampleJson() throws IOException {
        Path file = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/proofmode_json_output.example.json");

        List<ProofRecord> read = ProofJson.read(Files.readAllBytes(file), file.getFileName().toString());

        assertThat(read).hasSize(1);
        ProofRecord r = read.get(0);
        assertThat(r.fields()).hasSize(30);
        assertThat(r.mediaHash()).contains(H);
        assertThat(r.get("Proof Generated")).contains("Monday, June 20, 2022 1:11:29 p.m. Eastern Daylight Time");
        assertThat(r.get("CellInfo")).contains("[{\"cellId\":123456789,\"tac\":12345,\"dbm\":-91}]");
    }

    @Example
    void read_returnsAppRecord_jsonInsideAppGoodZip() throws IOException {
        Path zip = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/good.zip");
        byte[] bytes;
        String name;
        try (ZipFile z = new ZipFile(zip.toFile())) {
            var entry = z.stream().filter(e -> e.getName().endsWith(".proof.json")).findFirst().orElseThrow();
            name = entry.getName();
            try (var in = z.getInputStream(entry)) {
                bytes = in.readAllBytes();
            }
        }

        List<ProofRecord> read = ProofJson.read(bytes, name);

        assertThat(read).isNotEmpty();
        assertThat(read).allSatisfy(r -> assertThat(name).startsWith(r.mediaHash().orElseThrow()));
    }

    @Example
    void read_returnsRecords_arrayOfObjects() {
        byte[] bytes = "[{\"a\":\"1\"},{\"a\":\"2\"}]".getBytes(StandardCharsets.UTF_8);

        assertThat(ProofJson.read(bytes, "p.proof.json")).extracting(r -> r.get("a").orElseThrow()).containsExactly("1", "2");
    }

    @Example
    void read_failsWithBadData_garbage() {
        List<String> garbage = List.of("", "   \n", "null", "42", "\"text\"", "[]", "[1]", "{", "{\"a\":}", "{\"a\" \"b\"}",
                "{\"a\":\"b\"} trailing", "}{", "not json at all", "{'a':'b'}", "\u0000\u0001\u0002");
        for (String g : garbage) {
            assertBadData(g.getBytes(StandardCharsets.UTF_8), "x.proof.json");
        }
        assertBadData(new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xC3, 0x28}, "x.proof.json");
        assertBadData("{\"a\":\"\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1), "x.proof.json");
    }

    @Example
    void read_failsWithBadData_nestingDeeperThanLimit() {
        String deep = "{\"a\":" + "[".repeat(50) + "]".repeat(50) + "}";

        assertBadData(deep.getBytes(StandardCharsets.UTF_8), "deep.proof.json");
    }

    @Example
    void read_failsWithBadData_stringLongerThanLimit() {
        String big = "{\"a\":\"" + "x".repeat((1 << 20) + 1) + "\"}";

        assertBadData(big.getBytes(StandardCharsets.UTF_8), "big.proof.json");
    }

    @Example
    void read_failsWithBadData_moreRecordsThanLimit() {
        String many = "{\"a\":\"b\"}\n".repeat(ProofJson.MAX_RECORDS + 1);

        assertBadData(many.getBytes(StandardCharsets.UTF_8), "many.proof.json");
    }

    @Example
    void read_returnsAllRecords_exactlyTheLimit() {
        String many = "{\"a\":\"b\"}\n".repeat(ProofJson.MAX_RECORDS);

        assertThat(ProofJson.read(many.getBytes(StandardCharsets.UTF_8), "many.proof.json")).hasSize(ProofJson.MAX_RECORDS);
    }

    @Provide
    Arbitrary<ProofRecord> records() {
        return RecordArbitraries.anyRecord();
    }

    @Provide
    Arbitrary<List<ProofRecord>> recordLists() {
        return RecordArbitraries.anyRecord().list().ofMinSize(1).ofMaxSize(5);
    }

    @Provide
    Arbitrary<String> jsonLikeText() {
        return Arbitraries.of("{", "}", "[", "]", "\"", ":", ",", "a", "1", "-", ".", "e", "\\", "\\u00", "null", "true",
                " ", "\n", "\"k\":", "\"v\"", "{\"a\":\"b\"}", "\u0000", "é").list().ofMaxSize(30).map(l -> String.join("", l));
    }

    /** Field names and values equal, in the same order. */
    static void assertSameFieldsInOrder(ProofRecord actual, ProofRecord expected) {
        assertThat(new ArrayList<>(actual.fields().entrySet()))
                .containsExactlyElementsOf(new ArrayList<>(new LinkedHashMap<>(expected.fields()).entrySet()));
    }

    private static void assertReadsOrBadData(byte[] bytes) {
        try {
            List<ProofRecord> read = ProofJson.read(bytes, "fuzz.proof.json");
            assertThat(read).isNotEmpty();
        } catch (ProofModeException e) {
            assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
            assertThat(e.getMessage()).startsWith("fuzz.proof.json: ");
        }
    }

    private static void assertBadData(byte[] bytes, String name) {
        assertThatThrownBy(() -> ProofJson.read(bytes, name))
                .as("reading %s", new String(bytes, StandardCharsets.UTF_8))
                .isInstanceOfSatisfying(ProofModeException.class, e -> {
                    assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
                    assertThat(e.getMessage()).startsWith(name + ": ");
                });
    }
}
