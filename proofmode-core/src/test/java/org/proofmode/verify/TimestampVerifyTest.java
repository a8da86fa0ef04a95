// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.Op;
import org.proofmode.timestamp.ots.OtsFile;
import org.proofmode.timestamp.ots.Timestamp;

/**
 * Timestamp checks on the app's bundle (its real OpenTimestamps proof), and on a proof of our own given
 * timestamp files made to produce each other code.
 */
class TimestampVerifyTest {
    private static final Path GOOD = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/good.zip");

    @TempDir
    Path tmp;

    private final Verifier verifier = new Verifier(List.of(), BundleLimits.DEFAULT);

    /** The SHA-256 of the media of {@link #ownProof()}, which names its files. */
    private String h;

    /** A folder with a proof of our own (an Ed25519 key made for the test) and its media, not timestamped. */
    private Path ownProof() throws Exception {
        ProofMode pm = ProofMode.at(tmp.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Path media = TestHomes.jpegLike(tmp.resolve("camera").resolve("photo.jpg"), 7, 4000);
        ProveResult proved = TestHomes.prove(pm, key, media);
        h = proved.sha256().orElseThrow();
        Path dir = TestHomes.copyFolder(proved.proofFolder().orElseThrow(), tmp.resolve("own"));
        Files.copy(media, dir.resolve("photo.jpg"));
        assertThat(dir.resolve(h + ".ots")).doesNotExist();
        assertThat(verifier.verify(dir, Optional.empty()).verdict()).isEqualTo(Verdict.VALID);
        return dir;
    }

    /** An OpenTimestamps proof of the media's SHA-256 waiting on a calendar. */
    private static byte[] pendingOts(Path media) throws Exception {
        Timestamp t = new Timestamp(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(media)));
        t.attest(new Attestation.Pending("https://cal.example"));
        return new OtsFile(Op.Kind.SHA256, t).toBytes();
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
        // The how-to text is instructions, not an unchecked file; the SafetyNet attestation is checked, so nothing is unchecked.
        assertThat(r.allChecks()).filteredOn(k -> k.code().equals(CheckCodes.BUNDLE_FILE_UNCHECKED)).isEmpty();
        assertThat(r.allChecks()).filteredOn(k -> k.code().equals(CheckCodes.BUNDLE_FILE_INSTRUCTIONS)).extracting(Check::subject)
                .containsExactly("HowToVerifyProofData.txt");
        assertThat(r.unchecked()).noneMatch(s -> s.contains("HowToVerify"));
    }

    @Test
    void verify_otsMismatch_forProofOfOtherDigest() throws Exception {
        Path dir = ownProof();
        Timestamp t = new Timestamp(new byte[32]);
        t.add(Op.sha256()).attest(new Attestation.Pending("https://cal.example"));
        Files.write(dir.resolve(h + ".ots"), new OtsFile(Op.Kind.SHA256, t).toBytes());
        VerificationReport r = verifier.verify(dir, Optional.empty());
        assertThat(r.find(CheckCodes.TIMESTAMP_OTS_MISMATCH).orElseThrow().status()).isEqualTo(Status.FAIL);
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verify_otsMalformed_forTruncatedFile() throws Exception {
        Path dir = ownProof();
        Path ots = Files.write(dir.resolve(h + ".ots"), pendingOts(dir.resolve("photo.jpg")));
        assertThat(verifier.verify(dir, Optional.empty()).find(CheckCodes.TIMESTAMP_OTS_PENDING)).as("whole, it is read").isPresent();
        byte[] b = Files.readAllBytes(ots);
        Files.write(ots, java.util.Arrays.copyOf(b, b.length - 3));
        VerificationReport r = verifier.verify(dir, Optional.empty());
        assertThat(r.find(CheckCodes.TIMESTAMP_OTS_MALFORMED).orElseThrow().status()).isEqualTo(Status.FAIL);
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verify_otsBitcoin_withMerkleRootReversed_forSignatureDigest() throws Exception {
        Path dir = ownProof();
        byte[] asc = Files.readAllBytes(dir.resolve(h + ".asc"));
        Timestamp root = new Timestamp(java.security.MessageDigest.getInstance("SHA-256").digest(asc));
        Timestamp leaf = root.add(Op.append(new byte[] {1, 2, 3})).add(Op.sha256());
        leaf.attest(new Attestation.Bitcoin(800_000));
        Files.write(dir.resolve(h + ".ots"), new OtsFile(Op.Kind.SHA256, root).toBytes());
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
        Path dir = ownProof();
        Files.write(dir.resolve(h + ".tsr"), new byte[] {0x30, 0x03, 0x02, 0x01, 0x00});
        VerificationReport r = verifier.verify(dir, Optional.empty());
        Check c = r.find(CheckCodes.TIMESTAMP_RFC3161_INVALID).orElseThrow();
        assertThat(c.status()).isEqualTo(Status.FAIL);
        assertThat(c.message()).startsWith("malformed");
    }
}
