// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/** The network source on this machine's interfaces, with a routing table laid out as Linux has it. */
class NetworkSourceTest {
    @TempDir
    Path dir;

    @Test
    void contribute_recordsTheDefaultGateway_fromTheRoutingTable() throws Exception {
        Path route = Files.writeString(dir.resolve("route"),
                "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                        + "wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n"
                        + "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n");

        Map<String, String> f = contribute(new NetworkSource(new IdentifierHasher(dir.resolve("home")), route));

        assertThat(f).containsEntry("Network.Gateway", "192.168.1.1 (wlan0)");
    }

    @Test
    void contribute_recordsInterfacesUp_withHashedMacsOnly() throws Exception {
        Map<String, String> f = contribute(new NetworkSource(new IdentifierHasher(dir.resolve("home")), dir.resolve("no-route")));

        assertThat(f).containsKey("Network.Interfaces").doesNotContainKey("Network.Gateway");
        assertThat(f.get("Network.Interfaces")).doesNotContain("lo");
        f.forEach((k, v) -> {
            if (k.endsWith(".MAC") || k.endsWith(".BSSID")) {
                assertThat(v).as(k).matches("hmac-sha256:[0-9a-f]{64}");
            }
        });
        String all = String.join(" ", f.values()).toLowerCase(java.util.Locale.ROOT);
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            byte[] mac = ni.getHardwareAddress();
            if (mac != null && mac.length == 6) {
                assertThat(all).doesNotContain(HexFormat.ofDelimiter(":").formatHex(mac)).doesNotContain(HexFormat.of().formatHex(mac));
            }
        }
    }

    private Map<String, String> contribute(NetworkSource source) throws IOException {
        Path photo = Files.write(dir.resolve("photo.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF});
        ProofRecord.Builder b = ProofRecord.builder();
        source.contribute(new MediaFile(photo, new MediaType(MediaKind.IMAGE, "image/jpeg"), 3, Instant.now()), b);
        return b.build().fields();
    }
}
