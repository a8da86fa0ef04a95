// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.Op;
import org.proofmode.timestamp.ots.OtsFile;
import org.proofmode.timestamp.ots.Timestamp;

/** Timestamp checks on the app's bundle, and on copies of it changed to produce each failing code. */
class TimestampVerifyTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final Path GOOD = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/good.zip");

    @TempDir
    Path tmp;

    private final Verifier verifier = new Verifier(List.of(), BundleLimits.DEFAULT);

    private Path unpackGood() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("good"));
        try (ZipFile z = new ZipFile(GOOD.toFile())) {
            Enumeration<? extends ZipEntry> en = z.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                try (InputStream in = z.getInputStream(e)) {
                    Files.write(dir.resolve(e.getName()), in.readAllBytes());
                }
            }
        }
        return dir;
    }

    @Test
    void verify_reportsOtsPendingWithCalendars_forAppBundle() {
        VerificationReport r = verifier.verify(GOOD, Optional.empty());
        Check c = r.find(CheckCodes.TIMESTAMP_OTS_PENDING).orElseThrow();
        assertThat(c.status()).isEqualTo(Status.WARN);
        assertThat(c.subject()).endsWith(".ots");
        assertThat(c.message()).contains("the media's SHA-256", "https://alice.btc.calendar.opentimestamps.org",
                "https://bob.btc.calendar.opentimestamps.org");
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        // The SafetyNet attestation and the how-to text are the bundle's only unchecked files, and are named.
        assertThat(r.allChecks()).filteredOn(k -> k.code().equals(CheckCodes.BUNDLE_FILE_UNCHECKED)).extracting(Check::subject)
                .hasSize(2).anyMatch(s -> s.endsWith(".gst")).contains("HowToVerifyProofData.txt");
    }

    @Test
    void verify_otsMismatch_forProofOfOtherDigest() throws Exception {
        Path dir = unpackGood();
        Timestamp t = new Timestamp(new byte[32]);
        t.add(Op.sha256()).attest(new Attestation.Pending("https://cal.example"));
        Files.write(dir.resolve(H + ".ots"), new OtsFile(Op.Kind.SHA256, t).toBytes());
        VerificationReport r = verifier.verify(dir, Optional.empty());
        assertThat(r.find(CheckCodes.TIMESTAMP_OTS_MISMATCH).orElseThrow().status()).isEqualTo(Status.FAIL);
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verify_otsMalformed_forTruncatedFile() throws Exception {
        Path dir = unpackGood();
        Path ots = dir.resolve(H + ".ots");
        byte[] b = Files.readAllBytes(ots);
        Files.write(ots, java.util.Arrays.copyOf(b, b.length - 3));
        VerificationReport r = verifier.verify(dir, Optional.empty());
        assertThat(r.find(CheckCodes.TIMESTAMP_OTS_MALFORMED).orElseThrow().status()).isEqualTo(Status.FAIL);
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verify_otsBitcoin_withMerkleRootReversed_forSignatureDigest() throws Exception {
        Path dir = unpackGood();
        byte[] asc = Files.readAllBytes(dir.resolve(H + ".asc"));
        Timestamp root = new Timestamp(java.security.MessageDigest.getInstance("SHA-256").digest(asc));
        Timestamp leaf = root.add(Op.append(new byte[] {1, 2, 3})).add(Op.sha256());
        leaf.attest(new Attestation.Bitcoin(800_000));
        Files.write(dir.resolve(H + ".ots"), new OtsFile(Op.Kind.SHA256, root).toBytes());
        VerificationReport r = verifier.verify(dir, Optional.empty());
        Check c = r.find(CheckCodes.TIMESTAMP_OTS_BITCOIN).orElseThrow();
        byte[] m = leaf.msg();
        StringBuilder reversed = new StringBuilder();
        for (int i = m.length - 1; i >= 0; i--) {
            reversed.append(String.format("%02x", m[i]));
        }
        assertThat(c.status()).isEqualTo(Status.INFO);
        assertThat(c.message()).contains("block 800000", "merkle root " + reversed, "the media signature", "block explorer");
        assertThat(r.has(CheckCodes.TIMESTAMP_OTS_PENDING)).isFalse();
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
    }

    @Test
    void verify_rfc3161Invalid_forGarbageToken() throws Exception {
        Path dir = unpackGood();
        Files.write(dir.resolve(H + ".tsr"), new byte[] {0x30, 0x03, 0x02, 0x01, 0x00});
        VerificationReport r = verifier.verify(dir, Optional.empty());
        Check c = r.find(CheckCodes.TIMESTAMP_RFC3161_INVALID).orElseThrow();
        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.message()).startsWith("malformed");
    }
}
