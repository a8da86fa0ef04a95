// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.StampResult;
import org.proofmode.timestamp.TimestampQueue;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.OtsFile;
import org.proofmode.util.Http;

/** Our OpenTimestamps files against the reference Python library, and the app's files against both. */
class OtsInteropTest {
    private static final String H = Samples.APP_MEDIA_SHA256;

    @TempDir
    Path tmp;

    private Path proofFolder(String h) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("proofs").resolve(h));
        Files.writeString(folder.resolve(h + ".asc"), "-----BEGIN PGP SIGNATURE-----\n\nstand-in\n-----END PGP SIGNATURE-----\n");
        return folder;
    }

    private Timestamps timestamps(CalendarStub cal) {
        TimestampSettings s = new TimestampSettings(List.of(), List.of(cal.url()), Http.Timeouts.DEFAULT);
        return new Timestamps(s, new TimestampQueue(tmp.resolve("queue")), List.of(), Clock.systemUTC());
    }

    @Test
    void stamp_writesOtsThatPythonReadsByteForByte_committingToSignatureDigest() throws Exception {
        try (CalendarStub cal = CalendarStub.start(0)) {
            Path folder = proofFolder(H);
            List<StampResult> r = timestamps(cal).stamp(folder, H, new StampRequest(List.of(), List.of(cal.url())));
            assertThat(r).singleElement().extracting(StampResult::outcome).isEqualTo(StampResult.Outcome.STAMPED);
            Path ots = folder.resolve(H + ".ots");
            byte[] ours = Files.readAllBytes(ots);

            PythonOts py = PythonOts.read(ots);
            byte[] ascDigest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(folder.resolve(H + ".asc")));
            assertThat(py.fileHash()).isEqualTo("sha256");
            assertThat(py.digest()).isEqualTo(HexFormat.of().formatHex(ascDigest));
            assertThat(py.reserialized()).isEqualTo(HexFormat.of().formatHex(ours));
            assertThat(py.attestations()).singleElement().asString().startsWith("pending " + cal.url() + " ");
            assertThat(cal.submissions()).isEqualTo(1);
        }
    }

    @Test
    void upgrade_mergesBitcoinAttestation_thatPythonReadsWithSameMerkleRoot() throws Exception {
        try (CalendarStub cal = CalendarStub.start(0)) {
            Path folder = proofFolder(H);
            Timestamps ts = timestamps(cal);
            ts.stamp(folder, H, new StampRequest(List.of(), List.of(cal.url())));
            assertThat(ts.upgrade(folder, H)).singleElement().extracting(StampResult::outcome).isEqualTo(StampResult.Outcome.PENDING);

            cal.anchor(812_345);
            List<StampResult> up = ts.upgrade(folder, H);
            assertThat(up).singleElement().satisfies(u -> {
                assertThat(u.outcome()).isEqualTo(StampResult.Outcome.UPGRADED);
                assertThat(u.detail()).contains("Bitcoin block 812345");
            });
            Path ots = folder.resolve(H + ".ots");
            OtsFile file = OtsFile.parse(Files.readAllBytes(ots));
            Map.Entry<byte[], Attestation> btc = file.timestamp().allAttestations().stream()
                    .filter(e -> e.getValue() instanceof Attestation.Bitcoin).findFirst().orElseThrow();

            PythonOts py = PythonOts.read(ots);
            assertThat(py.reserialized()).isEqualTo(HexFormat.of().formatHex(Files.readAllBytes(ots)));
            assertThat(py.attestations()).contains("bitcoin 812345 " + HexFormat.of().formatHex(btc.getKey()));
            assertThat(py.attestations()).anyMatch(a -> a.startsWith("pending "));

            // Complete now: a second upgrade asks no calendar and leaves the file as it is.
            int lookups = cal.lookups();
            byte[] complete = Files.readAllBytes(ots);
            assertThat(ts.upgrade(folder, H)).singleElement().satisfies(u -> {
                assertThat(u.outcome()).isEqualTo(StampResult.Outcome.EXISTING);
                assertThat(u.detail()).contains("already anchored", "Bitcoin block 812345");
            });
            assertThat(cal.lookups()).isEqualTo(lookups);
            assertThat(ots).hasBinaryContent(complete);
        }
    }

    @Test
    void upgrade_asksNoCalendarMissingFromSettings_namedInTheFile() throws Exception {
        try (CalendarStub named = CalendarStub.start(0); CalendarStub configured = CalendarStub.start(0)) {
            Path folder = proofFolder(H);
            timestamps(named).stamp(folder, H, new StampRequest(List.of(), List.of(named.url())));
            named.anchor(812_346);
            byte[] before = Files.readAllBytes(folder.resolve(H + ".ots"));

            // The .ots names its calendar; the settings name another: a file must not send the tool to its hosts.
            List<StampResult> up = timestamps(configured).upgrade(folder, H);
            assertThat(up).singleElement().satisfies(u -> {
                assertThat(u.outcome()).isEqualTo(StampResult.Outcome.SKIPPED);
                assertThat(u.detail()).contains(named.url().toString(), "not a configured calendar");
            });
            assertThat(named.lookups()).isZero();
            assertThat(configured.lookups()).isZero();
            assertThat(folder.resolve(H + ".ots")).hasBinaryContent(before);
        }
    }

    @Test
    void appSamples_parseInBothAndRoundTripByteForByte() throws Exception {
        for (Path zip : List.of(Samples.appGoodZip(), Samples.appNoJsonZip())) {
            byte[] original;
            try (ZipFile z = new ZipFile(zip.toFile())) {
                ZipEntry e = z.getEntry(H + ".ots");
                try (InputStream in = z.getInputStream(e)) {
                    original = in.readAllBytes();
                }
            }
            Path copy = Files.write(tmp.resolve(zip.getFileName() + ".ots"), original);
            OtsFile ours = OtsFile.parse(original);
            assertThat(ours.toBytes()).as(zip.toString()).isEqualTo(original);
            assertThat(HexFormat.of().formatHex(ours.digest())).isEqualTo(H);

            PythonOts py = PythonOts.read(copy);
            assertThat(py.digest()).as(zip.toString()).isEqualTo(H);
            assertThat(py.reserialized()).as(zip.toString()).isEqualTo(HexFormat.of().formatHex(original));
            assertThat(py.attestations()).as(zip.toString()).isNotEmpty().allMatch(a -> a.startsWith("pending https://"));
            long pending = ours.timestamp().allAttestations().stream().filter(a -> a.getValue() instanceof Attestation.Pending).count();
            assertThat(py.attestations()).hasSize((int) pending);
        }
    }
}
