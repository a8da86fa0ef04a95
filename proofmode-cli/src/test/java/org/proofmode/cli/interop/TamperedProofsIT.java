// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Sqv;
import org.proofmode.testkit.Tamper;

/**
 * Tampered proofs are rejected by everyone: GnuPG and sqv refuse the changed file's signature, and
 * {@code proofmode verify} exits 3 naming exactly the check that failed. Each defect is derived from a
 * fresh valid proof by one recipe.
 */
class TamperedProofsIT {
    @TempDir
    Path dir;

    private ProofModeJar pm;
    private ProofSet bundle;

    @BeforeEach
    void proveAndUnpack() throws IOException {
        pm = ProofModeJar.at(dir.resolve("home"));
        ProofSet stored = ProofSet.prove(pm, TestMedia.jpeg(dir.resolve("camera"), "photo.jpg", 3));
        bundle = stored.bundleIn(dir.resolve("bundle"));
        verifyToolsAgree(bundle, "media", "proofJson", "proofCsv");
    }

    @Test
    void verify_exits3MediaHashMismatch_mediaByteFlipped() throws IOException {
        Tamper.flipByte(bundle.media(), 1000);

        verifyToolsAgree(bundle, "proofJson", "proofCsv");
        assertThat(failures()).containsOnlyKeys("media.hash.mismatch", "signature.media.invalid");
    }

    @Test
    void verify_exits3ProofJsonInvalid_proofJsonValueByteFlipped() throws IOException {
        Tamper.flipByte(bundle.json(), Tamper.offsetOf(bundle.json(), "\"Proof.Software\":\"proofmode") + 20);

        verifyToolsAgree(bundle, "media", "proofCsv");
        assertThat(failures()).containsExactlyEntriesOf(Map.of("signature.proofJson.invalid", bundle.sha256() + ".proof.json.asc"));
    }

    @Test
    void verify_exits3ProofJsonHashMismatch_proofJsonHashByteFlipped() throws IOException {
        Tamper.flipByte(bundle.json(), Tamper.offsetOf(bundle.json(), bundle.sha256()) + 10);

        verifyToolsAgree(bundle, "media", "proofCsv");
        assertThat(failures()).containsOnlyKeys("signature.proofJson.invalid", "proofJson.hash.mismatch");
    }

    @Test
    void verify_exits3ProofCsvInvalid_proofCsvByteFlipped() throws IOException {
        Tamper.flipByte(bundle.csv(), Tamper.offsetOf(bundle.csv(), "proofmode-jvm") + 2);

        verifyToolsAgree(bundle, "media", "proofJson");
        assertThat(failures()).containsExactlyEntriesOf(Map.of("signature.proofCsv.invalid", bundle.sha256() + ".proof.csv.asc"));
    }

    @Test
    void verify_exits3SignatureMalformed_proofJsonSignatureArmorByteFlipped() throws IOException {
        Tamper.flipByte(bundle.jsonSig(), Tamper.offsetOf(bundle.jsonSig(), "\n\n") + 12);

        verifyToolsAgree(bundle, "media", "proofCsv");
        assertThat(failures()).containsExactlyEntriesOf(Map.of("signature.proofJson.malformed", bundle.sha256() + ".proof.json.asc"));
    }

    @Test
    void verify_exits3SignatureInvalid_mediaSignatureValueChanged() throws IOException {
        Tamper.breakSignatureValue(bundle.mediaSig());

        verifyToolsAgree(bundle, "proofJson", "proofCsv");
        assertThat(failures()).containsExactlyEntriesOf(Map.of("signature.media.invalid", bundle.sha256() + ".asc"));
    }

    @Test
    void verify_exits3SignatureInvalid_proofCsvSignedByAnotherKey() throws IOException {
        try (Gpg other = Gpg.create(dir)) {
            String key = other.generateKey("Mallory <mallory@example.org>", Gpg.KeyAlgorithm.ED25519);
            other.detachSign(key, bundle.csv(), bundle.csvSig());
        }

        verifyToolsAgree(bundle, "media", "proofJson");
        assertThat(failures()).containsExactlyEntriesOf(Map.of("signature.proofCsv.invalid", bundle.sha256() + ".proof.csv.asc"));
    }

    @Test
    void verify_exits3SignatureMissing_proofJsonSignatureRemovedFromZip() throws IOException {
        Path zip = dir.resolve("share.zip");
        ProcessResult export = pm.run("export", "--with-media", "-o", zip.toString(), bundle.sha256());
        assertThat(export.exitCode()).as(export.describe()).isZero();
        Path tampered = dir.resolve("tampered.zip");
        Tamper.removeEntry(zip, tampered, bundle.sha256() + ".proof.json.asc");

        ProcessResult r = pm.run("verify", "--json", tampered.toString());
        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(JsonReport.of(r).failures()).containsOnlyKeys("signature.proofJson.missing");
    }

    @Test
    void verify_exits3MediaHashMismatch_mediaReplacedInZip() throws IOException {
        Path zip = dir.resolve("share.zip");
        ProcessResult export = pm.run("export", "--with-media", "-o", zip.toString(), bundle.sha256());
        assertThat(export.exitCode()).as(export.describe()).isZero();
        byte[] media = Files.readAllBytes(bundle.media());
        media[media.length - 1] ^= 0x01;
        Path tampered = dir.resolve("tampered.zip");
        Tamper.replaceEntry(zip, tampered, "photo.jpg", media);

        ProcessResult r = pm.run("verify", "--json", tampered.toString());
        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(JsonReport.of(r).failures()).containsOnlyKeys("media.hash.mismatch", "signature.media.invalid");
    }

    /**
     * Runs {@code proofmode verify} on the bundle folder, for people and with {@code --json}; asserts
     * exit 3 and that the printed report names every failed check, and returns the failed checks.
     */
    private Map<String, String> failures() {
        ProcessResult json = pm.run("verify", "--json", bundle.folder().toString());
        assertThat(json.exitCode()).as(json.describe()).isEqualTo(3);
        JsonReport report = JsonReport.of(json);
        assertThat(report.verdict()).isEqualTo("INVALID");
        Map<String, String> failed = report.failures();

        ProcessResult text = pm.run("verify", bundle.folder().toString());
        assertThat(text.exitCode()).as(text.describe()).isEqualTo(3);
        assertThat(text.stdout()).contains(": INVALID");
        failed.forEach((code, subject) -> assertThat(text.stdout())
                .containsPattern("FAIL +" + Pattern.quote(code) + " +" + Pattern.quote(subject) + ": "));
        return failed;
    }

    /**
     * Checks every signature of the bundle with gpg (fresh home, only {@code pubkey.asc} imported) and
     * with sqv: those named in {@code good} must verify, the others must not.
     */
    private void verifyToolsAgree(ProofSet set, String... good) throws IOException {
        Set<String> expectGood = Set.of(good);
        try (Gpg fresh = Gpg.create(dir)) {
            fresh.importKey(set.pubkey());
            for (ProofSet.Signed s : set.signed()) {
                ProcessResult g = fresh.verify(s.signature(), s.data());
                ProcessResult q = Sqv.verify(set.pubkey(), s.signature(), s.data());
                if (expectGood.contains(s.subject())) {
                    assertThat(g.exitCode()).as("gpg, " + s.subject() + ": " + g.describe()).isZero();
                    assertThat(q.exitCode()).as("sqv, " + s.subject() + ": " + q.describe()).isZero();
                } else {
                    assertThat(g.exitCode()).as("gpg, " + s.subject() + ": " + g.describe()).isNotZero();
                    assertThat(g.stderr()).as("gpg, " + s.subject()).doesNotContain("Good signature");
                    assertThat(q.exitCode()).as("sqv, " + s.subject() + ": " + q.describe()).isNotZero();
                }
            }
        }
    }
}
