// SPDX-License-Identifier: Apache-2.0
package org.proofmode.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.context.ImageHashSource;
import org.proofmode.context.MediaMetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofCsv;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.verify.Verifier;

/**
 * Fuzz targets for every parser that reads what strangers send: share bundles (zip), proof records
 * (JSON, CSV), armored keys, and the metadata of hostile images. Each target accepts only its documented
 * outcome: a result, or {@link ProofModeException} with {@link Failure#BAD_DATA}; metadata sources may
 * throw exceptions (the prover turns them into warnings) but never errors. In a normal build these
 * replay the seeds in {@code UntrustedInputFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1} fuzzes
 * (see bench/fuzz.sh).
 */
class UntrustedInputFuzzTest {
    private static final Verifier VERIFIER = new Verifier(List.of(), BundleLimits.DEFAULT);

    @FuzzTest(maxDuration = "2m")
    void bundleZip(byte[] data) {
        Path zip = temp(data, ".zip");
        try {
            assertThat(VERIFIER.verify(zip, Optional.empty()).verdict()).isNotNull();
        } catch (ProofModeException e) {
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
        } finally {
            delete(zip);
        }
    }

    @FuzzTest(maxDuration = "2m")
    void proofJson(byte[] data) {
        try {
            List<ProofRecord> records = ProofJson.read(data, "fuzz.proof.json");
            assertThat(records).isNotEmpty();
            assertThat(ProofJson.read(ProofJson.write(records.get(0)), "again.proof.json")).containsExactly(records.get(0));
        } catch (ProofModeException e) {
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
        }
    }

    @FuzzTest(maxDuration = "2m")
    void proofCsv(byte[] data) {
        try {
            assertThat(ProofCsv.read(data, "fuzz.proof.csv")).isNotEmpty();
        } catch (ProofModeException e) {
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
        }
    }

    @FuzzTest(maxDuration = "2m")
    void armoredKey(byte[] data) {
        try {
            assertThat(OpenPgpKeys.readCertificates(data, "fuzz.asc")).isNotEmpty();
        } catch (ProofModeException e) {
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
        }
    }

    @FuzzTest(maxDuration = "2m")
    void imageMetadata(byte[] data) {
        Path image = temp(data, ".jpg");
        try {
            MediaFile media = new MediaFile(image, new MediaType(MediaKind.IMAGE, "image/jpeg"), data.length, Instant.EPOCH);
            for (var source : List.of(new MediaMetadataSource(true, Optional.empty()), new ImageHashSource())) {
                ProofRecord.Builder record = ProofRecord.builder();
                try {
                    source.contribute(media, record);
                } catch (Exception documented) {
                    // A failing source becomes a warning in the proof; only errors would be a bug.
                }
                assertThat(record.build().fields()).isNotNull();
            }
        } finally {
            delete(image);
        }
    }

    private static Path temp(byte[] data, String suffix) {
        try {
            return Files.write(Files.createTempFile("fuzz", suffix), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
