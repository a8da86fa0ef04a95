// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.testkit.LifecycleKeys;
import org.proofmode.testkit.LifecycleKeys.Key;
import org.proofmode.verify.Check;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Every entry of a bundle is accounted for: a file no proof covers gets its own warning, and the summary
 * never speaks for it.
 */
class BundleEntryAccountingTest {
    private static final Instant SIGNED = LifecycleKeys.BORN.plus(Duration.ofDays(1));
    private static final byte[] MEDIA = "the proved photo".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private Key key;
    private Path bundle;

    @BeforeEach
    void intactProof() throws IOException {
        key = LifecycleKeys.primaryOnly("owner <o@example.org>");
        bundle = Files.createDirectories(dir.resolve("bundle"));
        for (Map.Entry<String, byte[]> e : key.proofEntries("photo.jpg", MEDIA, SIGNED, Map.of("File Path", "/DCIM/photo.jpg"),
                key.certificate()).entrySet()) {
            Files.write(bundle.resolve(e.getKey()), e.getValue());
        }
    }

    private VerificationReport verify() {
        return new Verifier(List.of(key.certificate()), BundleLimits.DEFAULT).verify(bundle, Optional.empty());
    }

    private static Check only(VerificationReport r, String subject) {
        List<Check> about = r.allChecks().stream().filter(c -> c.subject().equals(subject)).toList();
        assertThat(about).as("checks about %s in %s", subject, r.allChecks()).hasSize(1);
        return about.get(0);
    }

    @Test
    void verify_warnsUnproved_extraMediaBesideIntactProof() throws Exception {
        ProveCommandTest.jpeg(bundle, "other.jpg", 2000, 7);

        VerificationReport r = verify();

        assertThat(r.verdict()).isEqualTo(Verdict.TRUSTED);
        Check c = only(r, "other.jpg");
        assertThat(c.code()).isEqualTo("bundle.entry.unproved");
        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(r.unchecked()).containsExactly("other.jpg");
    }

    @Test
    void verify_warnsUnknown_fileOutsideEveryProof() throws IOException {
        Files.writeString(bundle.resolve("notes.txt"), "read me");
        Files.writeString(bundle.resolve("elsewhere.txt.asc"), "-----BEGIN PGP SIGNATURE-----");
        Files.writeString(bundle.resolve(".hidden"), "x");

        VerificationReport r = verify();

        assertThat(only(r, "notes.txt").code()).isEqualTo("bundle.entry.unknown");
        assertThat(only(r, "elsewhere.txt.asc").code()).isEqualTo("bundle.entry.unknown");
        assertThat(only(r, ".hidden").code()).isEqualTo("bundle.entry.unknown");
    }

    @Test
    void verify_accountsForFile_namedLikeProofOfAnotherHash() throws IOException {
        String other = "0".repeat(64);
        String sha = org.proofmode.media.Digests.sha256Hex(MEDIA);
        Files.copy(bundle.resolve(sha + ".proof.json.asc"), bundle.resolve(other + ".proof.json.asc"));

        VerificationReport r = verify();

        assertThat(r.allChecks()).anyMatch(c -> c.subject().equals(other + ".proof.json.asc") && c.status() != Status.PASS);
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verifyCommand_printsUncheckedFileAndSummaryWithoutIt_extraMedia() throws Exception {
        ProveCommandTest.jpeg(bundle, "other.jpg", 2000, 7);
        Path trust = Files.write(dir.resolve("owner.asc"), key.armored());

        Cli.Result r = new Cli(dir.resolve("home")).run("verify", "--trust", trust.toString(), bundle.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        String summary = r.out().lines().findFirst().orElseThrow();
        assertThat(summary).contains("TRUSTED").contains("not checked: other.jpg").doesNotContain("nothing was changed");
        assertThat(r.out()).containsPattern("WARN +bundle\\.entry\\.unproved +other\\.jpg");
    }
}
