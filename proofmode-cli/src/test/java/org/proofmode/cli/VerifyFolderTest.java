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
    void verify_exits83_forMediaWithFolderOfBundles() {
        Cli.Result r = cli.run("verify", "--media", tmp.resolve("media/p0.jpg").toString(), intake.toString());
        assertThat(r.exit()).isEqualTo(83);
    }
}
