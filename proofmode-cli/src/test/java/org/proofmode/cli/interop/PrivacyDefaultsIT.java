// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ProcessResult;

/**
 * Privacy by default: a proof made with default settings holds no location, no network facts and no
 * identifier of this machine in the clear. The test searches every proof file for this machine's MAC
 * addresses, IP addresses and host name, as the operating system reports them.
 */
class PrivacyDefaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void prove_recordsNoLocationNetworkOrIdentifier_withDefaultSettings() throws IOException {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 21);

        ProcessResult r = pm.run("prove", "--j3m", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        Path folder = pm.proofFolder(TestMedia.sha256(photo));
        JsonNode proof = JSON.readTree(folder.resolve(TestMedia.sha256(photo) + ".proof.json").toFile());
        List<String> names = new ArrayList<>();
        proof.fieldNames().forEachRemaining(names::add);
        assertThat(names).noneMatch(n -> n.startsWith("Location.") || n.startsWith("Network.") || n.contains("GPS")
                || n.equals("Device.Hostname") || n.equals("Device.Serial") || n.equals("Device.MachineId"));
        assertThat(names).contains("Device.OS.Name", "Device.Clock.Synchronised");
        assertNoIdentifierInTheClear(folder, true);
        assertThat(pm.home().resolve("keys").resolve("identifier-secret")).doesNotExist();
    }

    @Test
    void prove_hashesMacsAndHostname_withNetworkAndDeviceIdsOn() throws IOException {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 22);

        ProcessResult r = pm.run("prove", "--network", "--device-ids", photo.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        Path folder = pm.proofFolder(TestMedia.sha256(photo));
        JsonNode proof = JSON.readTree(folder.resolve(TestMedia.sha256(photo) + ".proof.json").toFile());
        assertThat(proof.get("Device.Hostname").asText()).matches("hmac-sha256:[0-9a-f]{64}");
        assertThat(proof.has("Network.Interfaces")).isTrue();
        proof.fieldNames().forEachRemaining(n -> {
            if (n.endsWith(".MAC") || n.endsWith(".BSSID")) {
                assertThat(proof.get(n).asText()).as(n).matches("hmac-sha256:[0-9a-f]{64}");
            }
        });
        assertNoIdentifierInTheClear(folder, false);
    }

    /** Fails if a MAC address, host name or (when {@code ips}) IP address of this machine is in any proof file. */
    private static void assertNoIdentifierInTheClear(Path folder, boolean ips) throws IOException {
        List<String> needles = new ArrayList<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            byte[] mac = ni.getHardwareAddress();
            if (mac != null && mac.length == 6) {
                String hex = HexFormat.of().formatHex(mac);
                needles.add(hex);
                needles.add(HexFormat.ofDelimiter(":").formatHex(mac));
                needles.add(HexFormat.ofDelimiter("-").formatHex(mac));
            }
            if (ips && !ni.isLoopback()) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    String s = a.getHostAddress().replaceFirst("%.*$", "");
                    needles.add(s);
                    if (a instanceof Inet6Address) {
                        needles.add(s.replaceAll("(^|:)0+(?=[0-9a-f])", "$1").replaceFirst("(^|:)(0:)+", "::"));
                    }
                }
            }
        }
        String host = InetAddress.getLocalHost().getHostName();
        assertThat(needles).as("this machine has a network interface with a MAC address").isNotEmpty();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
                for (String n : needles) {
                    assertThat(text).as(f.getFileName() + " holds " + n).doesNotContain(n.toLowerCase(Locale.ROOT));
                }
                // A short host name (such as "vm") occurs by chance inside base64 and words, so it is
                // looked for as a whole value; a long one anywhere.
                if (host.length() >= 8) {
                    assertThat(text).as(f.getFileName() + " holds the host name").doesNotContain(host.toLowerCase(Locale.ROOT));
                } else if (f.toString().endsWith(".json") || f.toString().endsWith(".csv")) {
                    assertThat(text.split("[^a-z0-9.-]+")).as(f.getFileName() + " holds the host name").doesNotContain(host.toLowerCase(Locale.ROOT));
                }
            }
        }
    }
}
