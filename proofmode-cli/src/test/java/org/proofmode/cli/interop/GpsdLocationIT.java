// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * Location from a real gpsd: gpsfake starts gpsd on a free port and replays an NMEA log written here
 * (RMC and GGA sentences with valid checksums, timed now); the proof records gpsd's fix. With no gpsd
 * listening, the proof says so in a warning.
 */
class GpsdLocationIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HHmmss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DMY = DateTimeFormatter.ofPattern("ddMMyy").withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void prove_recordsGpsdsFix_fromGpsfakeReplayingAnNmeaLog() throws Exception {
        Path log = nmeaLog(Instant.now());
        int port = freePort();
        Process gpsfake = startGpsfake(log, port);
        try {
            waitForPort(port, gpsfake);
            Thread.sleep(1000);
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
            assertThat(pm.run("settings", "set", "gpsd.port", Integer.toString(port)).exitCode()).isZero();
            Path photo = TestMedia.jpeg(dir, "photo.jpg", 11);

            ProcessResult r = pm.run("prove", "--location", photo.toString());

            assertThat(r.exitCode()).as(r.describe()).isZero();
            String h = TestMedia.sha256(photo);
            JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
            assertThat(proof.path("Warning.Location").isMissingNode()).as(proof.toString()).isTrue();
            assertThat(proof.has("Location.Time")).as(proof.toString()).isTrue();
            assertThat(proof.has("Location.Altitude")).as(proof.toString()).isTrue();
            assertThat(proof.get("Location.Provider").asText()).isEqualTo("gpsd");
            assertThat(Double.parseDouble(proof.get("Location.Latitude").asText())).isCloseTo(48.1173, org.assertj.core.api.Assertions.within(1e-6));
            assertThat(Double.parseDouble(proof.get("Location.Longitude").asText())).isCloseTo(11.516666667, org.assertj.core.api.Assertions.within(1e-6));
            assertThat(proof.get("Location.Altitude").asText()).isEqualTo("545.4");
            assertThat(Double.parseDouble(proof.get("Location.Accuracy").asText())).isPositive();
            Instant fix = Instant.parse(proof.get("Location.Time").asText());
            Instant proved = Instant.parse(proof.get("Proof Generated").asText());
            assertThat(Duration.between(fix, proved).abs()).isLessThan(Duration.ofMinutes(2));
            assertThat(Long.parseLong(proof.get("Location.Age").asText())).isEqualTo(Duration.between(fix, proved).toSeconds());
        } finally {
            stop(gpsfake);
        }
    }

    @Test
    void prove_saysGpsdIsAbsent_whenNothingListens() throws Exception {
        int port = freePort();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        pm.run("settings", "set", "location", "true");
        pm.run("settings", "set", "gpsd.port", Integer.toString(port));
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 12);

        ProcessResult r = pm.run("prove", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        String h = TestMedia.sha256(photo);
        JsonNode proof = JSON.readTree(pm.proofFolder(h).resolve(h + ".proof.json").toFile());
        assertThat(proof.get("Warning.Location").asText()).contains("gpsd not reachable at 127.0.0.1:" + port);
        assertThat(proof.has("Location.Latitude")).isFalse();
    }

    /** Five seconds of a stationary receiver: $GPRMC and $GPGGA per second from {@code start}. */
    private Path nmeaLog(Instant start) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Instant t = start.plusSeconds(i);
            lines.add(sentence("GPRMC," + HMS.format(t) + ".00,A,4807.038,N,01131.000,E,000.0,000.0," + DMY.format(t) + ",003.1,W"));
            lines.add(sentence("GPGGA," + HMS.format(t) + ".00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"));
        }
        return Files.writeString(dir.resolve("fix.nmea"), String.join("\r\n", lines) + "\r\n", StandardCharsets.US_ASCII);
    }

    /** {@code $BODY*CS} with the XOR checksum NMEA 0183 defines. */
    static String sentence(String body) {
        int cs = 0;
        for (char c : body.toCharArray()) {
            cs ^= c;
        }
        return String.format("$%s*%02X", body, cs);
    }

    private Process startGpsfake(Path log, int port) throws IOException {
        Path gpsfake = ExternalTool.require("gpsfake");
        // Replays the log in a loop, a sentence every 0.1 s, until stopped; -n has gpsd read the receiver
        // before any client asks, as a gpsd serving a real receiver does, so a fix is ready when the proof
        // asks; -q keeps it quiet.
        return new ProcessBuilder(gpsfake.toString(), "-q", "-n", "-c", "0.1", "-P", Integer.toString(port), log.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve("gpsfake.out").toFile()).redirectError(dir.resolve("gpsfake.err").toFile()).start();
    }

    private void waitForPort(int port, Process gpsfake) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!gpsfake.isAlive()) {
                throw new AssertionError("gpsfake exited " + gpsfake.exitValue() + ": " + Files.readString(dir.resolve("gpsfake.err")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("gpsd did not listen on port " + port + " within 20 s");
    }

    /** Stops gpsfake and the gpsd it started, and waits for both. */
    private static void stop(Process p) throws Exception {
        List<ProcessHandle> children = p.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle c : children) {
            c.destroyForcibly();
            c.onExit().get(5, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
