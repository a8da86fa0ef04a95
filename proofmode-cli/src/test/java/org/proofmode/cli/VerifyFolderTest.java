// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Tamper;

/** {@code verify} of a folder of bundles, and of several PATHs: many at once, a summary, JSON lines, one exit code. */
class VerifyFolderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli cli;
    private Path intake;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        intake = Files.createDirectories(tmp.resolve("intake"));
        for (int i = 0; i < 4; i++) {
            Path media = ProveCommandTest.jpeg(tmp.resolve("media"), "p" + i + ".jpg", 3000 + i, 40 + i);
            assertThat(cli.run("prove", media.toString()).exit()).isZero();
            assertThat(cli.run("export", "--with-media", "-o", intake.resolve("ours-" + i + ".zip").toString(), media.toString()).exit()).isZero();
        }
    }

    /**
     * Adds a good bundle by another device's key ({@code another-good.zip}: VALID here, not TRUSTED) and one
     * whose proof signature is that of a third key ({@code another-bad.zip}: INVALID).
     */
    private void addOthersBundles() throws Exception {
        Files.copy(Cli.othersBundle(tmp, "sender", 0), intake.resolve("another-good.zip"));
        Path bad = Cli.othersBundle(tmp, "sender", 1);
        Path forger = Cli.othersBundle(tmp, "forger", 2);
        Map<String, byte[]> forged = Tamper.readZip(forger);
        String sig = Tamper.readZip(bad).keySet().stream().filter(n -> n.endsWith(".proof.json.asc")).findFirst().orElseThrow();
        String forgedSig = forged.keySet().stream().filter(n -> n.endsWith(".proof.json.asc")).findFirst().orElseThrow();
        Tamper.replaceEntry(bad, intake.resolve("another-bad.zip"), sig, forged.get(forgedSig));
    }


    private void addTruncated() throws Exception {
        byte[] zip = Files.readAllBytes(intake.resolve("ours-0.zip"));
        Files.write(intake.resolve("cut.zip"), Arrays.copyOf(zip, zip.length / 2));
    }

    @Test
    void verify_printsSummaryAndExits41_forFolderWithUnreadableAmongGood() throws Exception {
        addOthersBundles();
        addTruncated();
        Cli.Result r = cli.run("verify", intake.toString());
        assertThat(r.exit()).isEqualTo(41);
        assertThat(r.out()).contains("Summary: 7 items");
        assertThat(r.out()).containsPattern("TRUSTED +4\\n");
        assertThat(r.out()).containsPattern("VALID +1\\n +.*another-good\\.zip\\n");
        assertThat(r.out()).containsPattern("INVALID +1\\n +.*another-bad\\.zip\\n");
        assertThat(r.out()).containsPattern("unreadable +1\\n +.*cut\\.zip \\(exit 41\\)");
        assertThat(r.err()).contains("cut.zip").doesNotContain("Exception");
        // Every item's report is printed, in name order.
        assertThat(r.out().indexOf("another-bad.zip: INVALID")).isLessThan(r.out().indexOf("another-good.zip: VALID"));
        assertThat(r.out().indexOf("another-good.zip: VALID")).isLessThan(r.out().indexOf("ours-3.zip: TRUSTED"));
    }

    @Test
    void verify_exits3_forFolderWithInvalidAndNoUnreadable() throws Exception {
        addOthersBundles();
        Cli.Result r = cli.run("verify", intake.toString());
        assertThat(r.exit()).isEqualTo(3);
    }

    @Test
    void verify_exits0ThenExits43WithRequireTrusted_forFolderWithValidAmongTrusted() throws Exception {
        Files.copy(Cli.othersBundle(tmp, "sender", 0), intake.resolve("another-good.zip"));
        assertThat(cli.run("verify", intake.toString()).exit()).isZero();
        assertThat(cli.run("verify", "--require-trusted", intake.toString()).exit()).isEqualTo(43);
    }

    @Test
    void verify_printsOneJsonLinePerItemInOrder_withJsonForFolder() throws Exception {
        addOthersBundles();
        addTruncated();
        Cli.Result r = cli.run("verify", "--json", intake.toString());
        assertThat(r.exit()).isEqualTo(41);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(7);
        List<String> sources = new ArrayList<>();
        for (String line : lines) {
            JsonNode n = JSON.readTree(line);
            assertThat(n.path("formatVersion").asInt()).isEqualTo(1);
            sources.add(Path.of(n.path("source").asText()).getFileName().toString());
            if (sources.get(sources.size() - 1).equals("cut.zip")) {
                assertThat(n.path("error").path("exitCode").asInt()).isEqualTo(41);
                assertThat(n.path("error").path("message").asText()).contains("cut.zip");
                assertThat(n.has("verdict")).isFalse();
            } else {
                assertThat(n.path("verdict").asText()).isIn("TRUSTED", "VALID", "INVALID");
            }
        }
        assertThat(sources).containsExactly("another-bad.zip", "another-good.zip", "cut.zip", "ours-0.zip", "ours-1.zip", "ours-2.zip", "ours-3.zip");
        assertThat(JSON.readTree(lines.get(0)).path("verdict").asText()).isEqualTo("INVALID");
    }

    @Test
    void verify_printsJsonLines_forSeveralPaths() throws Exception {
        Cli.Result r = cli.run("verify", "--json", intake.resolve("ours-0.zip").toString(), intake.resolve("ours-1.zip").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines()).hasSize(2).allSatisfy(l -> assertThat(JSON.readTree(l).path("verdict").asText()).isEqualTo("TRUSTED"));
    }

    @Test
    void verify_printsOneJsonDocument_forSingleBundle() throws Exception {
        Cli.Result r = cli.run("verify", "--json", intake.resolve("ours-0.zip").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().count()).isGreaterThan(1);
        assertThat(JSON.readTree(r.out()).path("verdict").asText()).isEqualTo("TRUSTED");
    }

    @Test
    void verify_givesSameReportsWhateverTheJobs_forFolder() throws Exception {
        addOthersBundles();
        for (int i = 4; i < 16; i++) {
            Path media = ProveCommandTest.jpeg(tmp.resolve("media"), "p" + i + ".jpg", 3000 + i, 40 + i);
            assertThat(cli.run("prove", media.toString()).exit()).isZero();
            assertThat(cli.run("export", "--with-media", "-o", intake.resolve("ours-" + i + ".zip").toString(), media.toString()).exit()).isZero();
        }
        Cli.Result one = cli.run("verify", "--json", "--jobs", "1", intake.toString());
        Cli.Result many = cli.run("verify", "--json", "--jobs", "8", intake.toString());
        assertThat(many.exit()).as(one.err() + many.err()).isEqualTo(one.exit()).isEqualTo(3);
        assertThat(many.out().lines()).hasSize(18);
        assertThat(many.out()).isEqualTo(one.out());
    }

    @Test
    void verify_givesEachItemTheReportOfItsOwnVerify_forFolder() throws Exception {
        addOthersBundles();
        // Tampered bundles of our own key: a media byte changed, a proof.json changed, a media signature
        // broken; and, after them in name order, the good bundles again (the batch's remembered
        // certificate facts then serve bundles that come after failures).
        Map<String, byte[]> ours = Tamper.readZip(intake.resolve("ours-0.zip"));
        String mediaName = ours.keySet().stream().filter(n -> n.endsWith(".jpg")).findFirst().orElseThrow();
        byte[] media = ours.get(mediaName).clone();
        media[media.length / 2] ^= 1;
        Tamper.replaceEntry(intake.resolve("ours-0.zip"), intake.resolve("m-media-changed.zip"), mediaName, media);
        Map<String, byte[]> first = Tamper.readZip(intake.resolve("ours-1.zip"));
        String jsonName = first.keySet().stream().filter(n -> n.endsWith(".proof.json")).findFirst().orElseThrow();
        byte[] json = new String(first.get(jsonName), java.nio.charset.StandardCharsets.UTF_8)
                .replaceFirst("\\{", "{\"Added\":\"later\",").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Tamper.replaceEntry(intake.resolve("ours-1.zip"), intake.resolve("m-proof-changed.zip"), jsonName, json);
        Map<String, byte[]> second = Tamper.readZip(intake.resolve("ours-2.zip"));
        String sigName = second.keySet().stream().filter(n -> n.endsWith(".jpg.asc") || (n.endsWith(".asc") && !n.contains(".proof.")
                && !n.equals("pubkey.asc"))).findFirst().orElseThrow();
        Path sig = tmp.resolve("media.asc");
        Files.write(sig, second.get(sigName));
        Tamper.breakSignatureValue(sig);
        Tamper.replaceEntry(intake.resolve("ours-2.zip"), intake.resolve("m-signature-broken.zip"), sigName, Files.readAllBytes(sig));
        for (int i = 0; i < 4; i++) {
            Files.copy(intake.resolve("ours-" + i + ".zip"), intake.resolve("z-again-" + i + ".zip"));
        }

        Cli.Result batch = cli.run("verify", "--json", "--jobs", "2", intake.toString());
        List<String> lines = batch.out().lines().toList();
        List<Path> items;
        try (var s = Files.list(intake)) {
            items = s.sorted().toList();
        }
        assertThat(lines).as(batch.err()).hasSize(items.size()).hasSize(13);
        List<String> verdicts = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Cli.Result alone = cli.run("verify", "--json", items.get(i).toString());
            JsonNode fromBatch = JSON.readTree(lines.get(i));
            JsonNode single = JSON.readTree(alone.out());
            assertThat(fromBatch.path("source").asText()).isEqualTo(items.get(i).toString());
            assertThat(fromBatch).as(items.get(i).getFileName() + ": the batch's report against its own verify's").isEqualTo(single);
            verdicts.add(items.get(i).getFileName() + " " + fromBatch.path("verdict").asText());
        }
        assertThat(verdicts).containsExactly("another-bad.zip INVALID", "another-good.zip VALID", "m-media-changed.zip INVALID",
                "m-proof-changed.zip INVALID", "m-signature-broken.zip INVALID", "ours-0.zip TRUSTED", "ours-1.zip TRUSTED",
                "ours-2.zip TRUSTED", "ours-3.zip TRUSTED", "z-again-0.zip TRUSTED", "z-again-1.zip TRUSTED", "z-again-2.zip TRUSTED",
                "z-again-3.zip TRUSTED");
    }

    @Test
    void verify_exits83_forMediaWithFolderOfBundles() {
        Cli.Result r = cli.run("verify", "--media", tmp.resolve("media/p0.jpg").toString(), intake.toString());
        assertThat(r.exit()).isEqualTo(83);
    }
}
