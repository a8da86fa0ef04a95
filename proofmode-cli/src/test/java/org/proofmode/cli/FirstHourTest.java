// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.Tamper;

/**
 * A new user's first hour: prove a folder and verify it, what a proof says of where the file was, what a
 * verdict on our own bundles lists as not checked, and export and prove without extra steps.
 */
class FirstHourTest {
    /** A folder name that must never leave the machine in a proof. */
    private static final String PRIVATE = "alice-private-folder";

    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;
    private Path work;
    private Path photos;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        work = Files.createDirectories(tmp.resolve(PRIVATE));
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase").cwd(work);
        photos = work.resolve("photos");
        ProveCommandTest.jpeg(photos, "a.jpg", 4000, 1);
        ProveCommandTest.jpeg(photos.resolve("sub"), "b.jpg", 4100, 2);
    }

    @Test
    void verify_isTrustedForEachPhoto_forFolderJustProvedWithSubfolders() throws Exception {
        Files.writeString(photos.resolve("notes.txt"), "not media");
        assertThat(cli.run("prove", "photos").exit()).isZero();

        Cli.Result r = cli.run("verify", "photos");

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("Summary: 2 items").containsPattern("TRUSTED +2\\n").containsPattern("INVALID +0\\n")
                .contains("photos/a.jpg (its proof: ", "photos/sub/b.jpg (its proof: ").doesNotContain(work.toString());
        assertThat(r.err()).contains("left out 1 file that are neither media nor bundles");
    }

    @Test
    void verify_isInvalidForTheChangedPhotoAndExits3_forFolderWithTamperedPhoto() throws Exception {
        assertThat(cli.run("prove", "photos").exit()).isZero();
        Tamper.flipByte(photos.resolve("sub/b.jpg"), 2000);

        Cli.Result r = cli.run("verify", "photos");

        assertThat(r.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.out()).containsPattern("TRUSTED +1\\n").containsPattern("INVALID +1\n +photos/sub/b\\.jpg\n")
                .containsPattern("FAIL +media\\.hash\\.mismatch +photos/sub/b\\.jpg");
    }

    @Test
    void verify_listsTheUnprovedPhotoAndExits61_forFolderWithPhotoNeverProved() throws Exception {
        assertThat(cli.run("prove", "photos").exit()).isZero();
        ProveCommandTest.jpeg(photos, "new.jpg", 4200, 3);

        Cli.Result r = cli.run("verify", "photos");

        assertThat(r.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(r.out()).containsPattern("TRUSTED +2\\n").containsPattern("unreadable +1\n +photos/new\\.jpg \\(exit 61\\)");
        assertThat(r.err()).contains("photos/new.jpg: no proof of this file");
    }

    @Test
    void verify_isOneBundleVerdict_forUnpackedBundleAndProofFolder() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "photos/a.jpg").exit()).isZero();
        Path unpacked = Files.createDirectories(work.resolve("unpacked"));
        for (Map.Entry<String, byte[]> e : Tamper.readZip(photos.resolve("a.jpg.proofmode.zip")).entrySet()) {
            Files.write(unpacked.resolve(e.getKey()), e.getValue());
        }
        String h = Digests.sha256(photos.resolve("a.jpg"));

        Cli.Result bundle = cli.run("verify", "unpacked");
        Cli.Result proofFolder = cli.run("verify", home.resolve("proofs").resolve(h).toString());

        assertThat(bundle.exit()).isZero();
        assertThat(bundle.out()).startsWith("unpacked: TRUSTED").doesNotContain("Summary");
        assertThat(proofFolder.out()).startsWith(home.resolve("proofs").resolve(h) + ": ").doesNotContain("Summary");
    }

    @Test
    void verify_verifiesBundlesAndMedia_forMixedFolder() throws Exception {
        assertThat(cli.run("prove", "photos").exit()).isZero();
        Path mixed = Files.createDirectories(work.resolve("mixed"));
        Files.copy(Cli.othersBundle(tmp, "sender", 0), mixed.resolve("sender.zip"));
        Files.copy(photos.resolve("a.jpg"), mixed.resolve("a.jpg"));

        Cli.Result r = cli.run("verify", "mixed");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Summary: 2 items").containsPattern("TRUSTED +1\\n").containsPattern("VALID +1\\n +mixed/sender\\.zip\\n");
    }

    @Test
    void verify_exits61_forFolderWithNothingToVerify() throws Exception {
        Path empty = Files.createDirectories(work.resolve("empty"));
        Files.writeString(empty.resolve("readme.txt"), "text");

        Cli.Result r = cli.run("verify", "empty");

        assertThat(r.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(r.err()).contains("empty: no media, bundles or proof folders in this folder");
    }

    @Test
    void prove_recordsTheFileNameOnly_forRelativeAndAbsoluteArguments() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("prove", photos.resolve("sub/b.jpg").toString()).exit()).isZero();
        assertThat(cli.run("export", "-o", "share.zip", "photos/a.jpg", "photos/sub/b.jpg").exit()).isZero();

        try (Stream<Path> files = Files.walk(home.resolve("proofs"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f, StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain(PRIVATE).doesNotContain("photos/");
            }
        }
        for (Map.Entry<String, byte[]> e : Tamper.readZip(work.resolve("share.zip")).entrySet()) {
            assertThat(new String(e.getValue(), StandardCharsets.ISO_8859_1)).as(e.getKey()).doesNotContain(PRIVATE);
        }
        String h = Digests.sha256(photos.resolve("a.jpg"));
        assertThat(Files.readString(home.resolve("proofs").resolve(h).resolve(h + ".proof.json"))).contains("\"File Path\":\"a.jpg\"");
    }

    @Test
    void prove_recordsTheFullPathThatStillVerifies_withSettingFull() throws Exception {
        assertThat(cli.run("settings", "set", "context.file-path", "full").exit()).isZero();
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        String h = Digests.sha256(photos.resolve("a.jpg"));

        assertThat(Files.readString(home.resolve("proofs").resolve(h).resolve(h + ".proof.json")))
                .contains("\"File Path\":\"" + photos.resolve("a.jpg") + "\"");
        // A recorded full path lets a hash name the media, as before.
        assertThat(cli.run("export", "-o", "by-hash.zip", h).exit()).isZero();
        Cli.Result r = cli.run("verify", "by-hash.zip");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("by-hash.zip: TRUSTED");
        assertThat(cli.run("settings", "set", "context.file-path", "everything").exit()).isEqualTo(ExitCodes.BAD_OPTION);
    }

    @Test
    void verify_headlineListsNothingUnchecked_forOurBundleWithMedia() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "photos/a.jpg").exit()).isZero();

        Cli.Result r = cli.run("verify", "photos/a.jpg.proofmode.zip");

        assertThat(r.exit()).isZero();
        String headline = r.out().lines().findFirst().orElseThrow();
        assertThat(headline).isEqualTo("photos/a.jpg.proofmode.zip: TRUSTED — signed by a trusted key; the signed files "
                + "(proof records and media) are unchanged");
        assertThat(r.out()).containsPattern("INFO +bundle\\.file\\.instructions +HowToVerifyProofData\\.txt: instructions for the recipient, not evidence");
    }

    @Test
    void report_verdictListsNothingUnchecked_forOurBundleWithMedia() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "photos/a.jpg").exit()).isZero();

        Cli.Result r = cli.run("report", "-o", "report.pdf", "photos/a.jpg.proofmode.zip");

        assertThat(r.exit()).as(r.err()).isZero();
        String text = ReportTools.pdftotext(work.resolve("report.pdf")).replaceAll("\\s+", " ");
        assertThat(text).contains("Verdict: TRUSTED").doesNotContain("not checked: HowToVerifyProofData.txt");
    }

    @Test
    void verify_headlineSaysTheMediaWasNotInTheBundle_forProofOnlyBundle() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "--proof-only", "photos/a.jpg").exit()).isZero();

        Cli.Result r = cli.run("verify", "photos/a.jpg.proof.zip");

        String headline = r.out().lines().findFirst().orElseThrow();
        assertThat(headline).isEqualTo("photos/a.jpg.proof.zip: TRUSTED — signed by a trusted key; the signed files "
                + "(proof records) are unchanged; the media was not in the bundle");
    }

    @Test
    void verify_headlineKeepsTheHowToUnchecked_whenNotInTheBundleRoot() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "photos/a.jpg").exit()).isZero();
        Path zip = photos.resolve("a.jpg.proofmode.zip");
        Path without = work.resolve("without.zip");
        Tamper.removeEntry(zip, without, "HowToVerifyProofData.txt");
        Tamper.addEntry(without, work.resolve("moved.zip"), "docs/HowToVerifyProofData.txt",
                Tamper.readZip(zip).get("HowToVerifyProofData.txt"));

        Cli.Result r = cli.run("verify", "moved.zip");

        assertThat(r.out().lines().findFirst().orElseThrow()).endsWith("not checked: docs/HowToVerifyProofData.txt");
    }

    @Test
    void verify_headlineDoesNotListTheHowTo_forAppSampleBundle() {
        Path good = Samples.appGoodZip();

        Cli.Result r = cli.run("verify", good.toString());

        String headline = r.out().lines().findFirst().orElseThrow();
        // The how-to text is instructions, the SafetyNet attestation is checked: the headline leaves nothing out.
        assertThat(headline).doesNotContain("HowToVerifyProofData").doesNotContain("not checked");
        assertThat(r.out()).contains("bundle.file.instructions");
    }

    @Test
    void export_writesBesideTheFileAndNeverOverwrites_withoutOutput() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();

        Cli.Result first = cli.run("export", "photos/a.jpg");
        Path zip = photos.resolve("a.jpg.proofmode.zip");
        byte[] written = Files.readAllBytes(zip);
        Cli.Result again = cli.run("export", "photos/a.jpg");

        assertThat(first.exit()).isZero();
        assertThat(first.out().strip()).isEqualTo("photos/a.jpg.proofmode.zip");
        assertThat(Tamper.readZip(zip)).containsKey("a.jpg");
        assertThat(again.exit()).isEqualTo(ExitCodes.OUTPUT_EXISTS);
        assertThat(again.err().strip()).isEqualTo("proofmode: photos/a.jpg.proofmode.zip: exists already (use --force to replace it, or -o another name)");
        assertThat(Files.readAllBytes(zip)).isEqualTo(written);
        assertThat(cli.run("export", "--force", "photos/a.jpg").exit()).isZero();
        assertThat(cli.run("export", "--proof-only", "photos/a.jpg").out().strip()).isEqualTo("photos/a.jpg.proof.zip");
        assertThat(Tamper.readZip(photos.resolve("a.jpg.proof.zip"))).doesNotContainKey("a.jpg");
    }

    @Test
    void export_namesTheBundleByTheHashInTheCurrentFolder_forHashArgument() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        String h = Digests.sha256(photos.resolve("a.jpg"));

        Cli.Result proofOnly = cli.run("export", "--proof-only", h);
        Cli.Result withMedia = cli.run("export", h);

        assertThat(proofOnly.exit()).isZero();
        assertThat(work.resolve(h + ".proof.zip")).exists();
        // The proof names its file only; this home noted where it was, so the hash still brings the media.
        assertThat(withMedia.exit()).as(withMedia.err()).isZero();
        assertThat(Tamper.readZip(work.resolve(h + ".proofmode.zip"))).containsKey("a.jpg");
        for (byte[] entry : Tamper.readZip(work.resolve(h + ".proofmode.zip")).values()) {
            assertThat(new String(entry, StandardCharsets.ISO_8859_1)).doesNotContain(PRIVATE);
        }
        Files.move(photos.resolve("a.jpg"), work.resolve("a.jpg"));
        Cli.Result moved = cli.run("export", "-o", "moved.zip", h);
        assertThat(moved.exit()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(moved.err()).contains("no longer where it was proved", "give the media file instead, or --proof-only");
    }

    @Test
    void prove_saysOnceWhereTheProofsAre_onStderr() throws Exception {
        Cli.Result r = cli.run("prove", "photos");
        Cli.Result again = cli.run("prove", "photos");

        assertThat(r.err().lines().filter(l -> l.contains("proofs stored in")).toList())
                .containsExactly("proofmode: proofs stored in " + home.resolve("proofs") + " (2 new)");
        assertThat(r.out()).doesNotContain("stored in");
        assertThat(again.err()).contains("proofs stored in " + home.resolve("proofs") + " (0 new, 2 kept from before)");
        assertThat(cli.run("prove", "--out", "elsewhere", "photos/a.jpg").err()).contains("proofs written to elsewhere (1 new)");
    }

    @Test
    void verify_namesTheFileTypedAndItsStoredProof_forProvedMedia() throws Exception {
        assertThat(cli.run("prove", "photos/a.jpg").exit()).isZero();
        String h = Digests.sha256(photos.resolve("a.jpg"));

        Cli.Result r = cli.run("verify", "photos/a.jpg");

        assertThat(r.out().lines().findFirst().orElseThrow())
                .startsWith("photos/a.jpg (its proof: " + home.resolve("proofs").resolve(h) + "): TRUSTED");
    }
}
