// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WifiListingsTest {
    @Test
    void nmcli_unescapesColons_inTerseOutput() {
        List<String[]> nets = WifiListings.nmcli("Cafe\\: Main:AA\\:BB\\:CC\\:DD\\:EE\\:FF:72\n:11\\:22\\:33\\:44\\:55\\:66:30\ngarbage\n");

        assertThat(nets).hasSize(2);
        assertThat(nets.get(0)).containsExactly("Cafe: Main", "AA:BB:CC:DD:EE:FF", "72");
        assertThat(nets.get(1)).containsExactly("", "11:22:33:44:55:66", "30");
    }

    @Test
    void iw_readsBssSsidAndSignal() {
        String dump = "BSS aa:bb:cc:dd:ee:ff(on wlan0)\n\tfreq: 2412\n\tsignal: -40.00 dBm\n\tSSID: Home\n"
                + "BSS 11:22:33:44:55:66(on wlan0) -- associated\n\tSSID: \n";

        List<String[]> nets = WifiListings.iwScan(dump);

        assertThat(nets).hasSize(2);
        assertThat(nets.get(0)).containsExactly("Home", "aa:bb:cc:dd:ee:ff", "-40.00 dBm");
        assertThat(nets.get(1)[1]).isEqualTo("11:22:33:44:55:66");
        assertThat(WifiListings.iwInterfaces("phy#0\n\tInterface wlan0\n\t\ttype managed\n")).containsExactly("wlan0");
    }
}
