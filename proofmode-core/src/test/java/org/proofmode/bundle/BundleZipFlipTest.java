// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * A share zip with any one byte changed or cut short: verification returns a report or fails with
 * {@link Failure#BAD_DATA}, never another exception. A change to zip bookkeeping alone (times, a
 * local header name) may leave the proof valid, and a renamed media entry makes a proof-only share.
 */
class BundleZipFlipTest {
    private static Path dir;
    private static byte[] zip;

    @BeforeContainer
    static void makeBundle() throws Exception {
        dir = Files.createTempDirectory("zip-flip");
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Path media = TestHomes.jpegLike(dir.resolve("photo.jpg"), 5, 200);
        ProveResult r = TestHomes.prove(pm, key, media);
        Path out = dir.resolve("bundle.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(media))), out, false);
        zip = Files.readAllBytes(out);
    }

    @AfterContainer
    static void cleanUp() {
        TestHomes.deleteTree(dir);
    }

    @Example
    void verify_valid_untouchedBundle() throws Exception {
        assertThat(verify(zip).verdict()).isEqualTo(Verdict.VALID);
    }

    @Property(tries = 300, seed = "20251203")
    void verify_reportOrBadData_anyByteFlipped(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int where,
            @ForAll @IntRange(min = 1, max = 255) int mask) throws Exception {
        byte[] changed = zip.clone();
        changed[where % zip.length] ^= (byte) mask;

        assertReportOrBadData(changed);
    }

    @Property(tries = 100, seed = "20251203")
    void verify_reportOrBadData_cutShort(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int where) throws Exception {
        assertReportOrBadData(Arrays.copyOf(zip, where % zip.length));
    }

    private static void assertReportOrBadData(byte[] bytes) throws Exception {
        try {
            VerificationReport r = verify(bytes);
            Statistics.label("outcome").collect(r.verdict());
            if (r.verdict() != Verdict.INVALID) {
                assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH) || r.has(CheckCodes.MEDIA_MISSING))
                        .as("valid, yet neither a media hash match nor a proof-only share").isTrue();
            }
        } catch (ProofModeException e) {
            Statistics.label("outcome").collect(e.failure());
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    private static VerificationReport verify(byte[] bytes) throws Exception {
        Path file = Files.createTempFile(dir, "bundle", ".zip");
        try {
            Files.write(file, bytes);
            return new Verifier(List.of(), BundleLimits.DEFAULT).verify(file, Optional.empty());
        } finally {
            Files.delete(file);
        }
    }
}
