// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.context.MetadataSource;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;

class ContextChecksTest {
    private static final String PROOF = "2026-05-01T12:00:00Z";

    @TempDir
    Path dir;

    @Test
    void of_warnsCaptureAfterProof_whenExifTimeWithOffsetIsLater() {
        List<Check> c = ContextChecks.of(Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:01 15:00:00",
                "EXIF.OffsetTimeOriginal", "+02:00"));

        assertThat(codes(c)).containsExactly(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF);
        assertThat(c.get(0).status()).isEqualTo(Status.WARN);
        assertThat(c.get(0).message()).contains("2026-05-01T13:00:00Z");
    }

    @Test
    void of_staysQuiet_whenExifTimeIsEarlierOrWithinClockTolerance() {
        assertThat(ContextChecks.of(Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:01 14:01:00",
                "EXIF.OffsetTimeOriginal", "+02:00"))).isEmpty();
        assertThat(ContextChecks.of(Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:01 11:00:00"))).isEmpty();
    }

    @Test
    void of_warnsWithoutOffset_onlyWhenNoTimeZoneCouldExplainIt() {
        assertThat(ContextChecks.of(Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:02 01:59:00"))).isEmpty();
        assertThat(codes(ContextChecks.of(Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:02 02:03:00"))))
                .containsExactly(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF);
    }

    @Test
    void of_warnsCaptureAfterProof_forAVideoCreationTime() {
        assertThat(codes(ContextChecks.of(Map.of("Proof Generated", PROOF, "Video.CreationTime", "2026-05-02T00:00:00Z"))))
                .containsExactly(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF);
    }

    @Test
    void of_warnsStaleLocation_whenFixIsOlderThanTheMedia() {
        Map<String, String> r = Map.of("Proof Generated", PROOF, "EXIF.DateTimeOriginal", "2026:05:01 11:00:00",
                "EXIF.OffsetTimeOriginal", "+00:00", "Location.Time", "2026-05-01T10:00:00Z");

        assertThat(codes(ContextChecks.of(r))).containsExactly(CheckCodes.CONTEXT_LOCATION_STALE);
        assertThat(ContextChecks.of(Map.of("Proof Generated", PROOF, "File Modified", "2026-05-01T11:00:00Z",
                "Location.Time", "2026-05-01T10:56:00Z"))).isEmpty();
        assertThat(codes(ContextChecks.of(Map.of("Proof Generated", PROOF, "File Modified", "2026-05-01T11:00:00Z",
                "Location.Time", "2026-05-01T10:54:00Z")))).containsExactly(CheckCodes.CONTEXT_LOCATION_STALE);
    }

    @Test
    void of_warnsUnsynchronisedClock_onlyWhenRecordedAsFalse() {
        assertThat(codes(ContextChecks.of(Map.of("Device.Clock.Synchronised", "false"))))
                .containsExactly(CheckCodes.CONTEXT_CLOCK_UNSYNCHRONISED);
        assertThat(ContextChecks.of(Map.of("Device.Clock.Synchronised", "unknown"))).isEmpty();
        assertThat(ContextChecks.of(Map.of("Device.Clock.Synchronised", "true"))).isEmpty();
    }

    @Test
    void verify_reportsContextWarnings_butKeepsTheProofValid() {
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Instant proofTime = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant captured = proofTime.plus(java.time.Duration.ofDays(1));
        MetadataSource implausible = new MetadataSource() {
            @Override
            public String name() {
                return "Test";
            }

            @Override
            public void contribute(MediaFile media, ProofRecord.Builder r) {
                r.put("EXIF.DateTimeOriginal", java.time.format.DateTimeFormatter.ofPattern("yyyy:MM:dd HH:mm:ss")
                        .withZone(ZoneOffset.UTC).format(captured));
                r.put("EXIF.OffsetTimeOriginal", "+00:00");
                r.put("Device.Clock.Synchronised", "false");
            }
        };
        Prover prover = new Prover(key, pm.store(), List.of(implausible), Clock.fixed(proofTime, ZoneOffset.UTC));
        Path media = TestHomes.jpegLike(dir.resolve("photo.jpg"), 3, 100);
        ProveResult r = prover.prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));

        VerificationReport report = new Verifier(List.of(key.certificate()), BundleLimits.DEFAULT)
                .verify(r.proofFolder().orElseThrow(), Optional.of(media));

        assertThat(report.verdict()).as(report.proofs().get(0).checks().toString()).isEqualTo(Verdict.TRUSTED);
        ProofReport p = report.proofs().get(0);
        assertThat(codes(p.checks())).contains(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF, CheckCodes.CONTEXT_CLOCK_UNSYNCHRONISED);
        assertThat(ContextSummary.of(p.record())).containsEntry("captureTime", captured.toString())
                .containsEntry("clockSynchronised", "false");
        assertThat(ReportJson.write(report)).contains("\"context\"").contains("\"captureTime\" : \"" + captured + "\"");
    }

    @Test
    void summary_showsClockTrustAndEnvironment_inOneLineEach() {
        Map<String, String> r = Map.of(ContextFields.DEVICE_CLOCK_SYNCHRONISED, "true", ContextFields.DEVICE_CLOCK_SOURCE, "timedated",
                ContextFields.DEVICE_CLOCK_SERVER, "ntp.example.org", ContextFields.DEVICE_CLOCK_OFFSET, "-0.001500",
                ContextFields.ENVIRONMENT_VIRTUAL_MACHINE, "kvm", ContextFields.ENVIRONMENT_CONTAINER, "none",
                ContextFields.ENVIRONMENT_TRACER, "gdb", ContextFields.ENVIRONMENT_JVM_AGENTS, "agentlib:jdwp");

        Map<String, String> s = ContextSummary.of(r);

        assertThat(s).containsEntry("clock", "from timedated, server ntp.example.org, offset (s) -0.001500")
                .containsEntry("environment", "virtual machine kvm, container none, tracer gdb, JVM agents agentlib:jdwp");
        assertThat(ContextSummary.of(Map.of(ContextFields.DEVICE_CLOCK_SYNCHRONISED, "unknown"))).doesNotContainKeys("clock", "environment");
    }

    private static List<String> codes(List<Check> checks) {
        List<String> out = new ArrayList<>();
        checks.forEach(c -> out.add(c.code()));
        return out;
    }
}
