// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.HostileImages;
import org.proofmode.testkit.ProcessResult;

/**
 * Images built to exhaust a metadata reader are proved by a JVM limited to a 64 MiB heap and a minute:
 * XMP nested 50,000 levels deep, an EXIF directory claiming 65,535 entries and a 2 GiB value. Each ends
 * with a whole proof (what could not be read is a warning in it), never an out-of-memory error or a hang
 * (the time cap fails the test).
 */
class HostileMetadataIT {
    private static final List<String> SMALL_HEAP = List.of("-Xmx64m", "-XX:+UseSerialGC");
    private static final Duration CAP = Duration.ofMinutes(1);

    @TempDir
    Path dir;

    @Test
    void prove_exits0WithinHeapAndTimeCap_deeplyNestedXmp() throws Exception {
        proveWithinCaps(HostileImages.nestedXmpPng(Files.createDirectories(dir.resolve("media")), 50_000));
    }

    @Test
    void prove_exits0WithinHeapAndTimeCap_exifDirectoryClaimingHugeCounts() throws Exception {
        proveWithinCaps(HostileImages.hugeExifCountJpeg(Files.createDirectories(dir.resolve("media"))));
    }

    private void proveWithinCaps(Path image) throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));

        ProcessResult proved = pm.runJvm(SMALL_HEAP, CAP, "prove", image.toString());

        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        assertThat(proved.stderr()).doesNotContain("OutOfMemoryError", "StackOverflowError");
        ProcessResult verified = pm.runJvm(SMALL_HEAP, CAP, "verify", "--require-trusted", pm.proofFolder(Digests.sha256(image)).toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
    }
}
