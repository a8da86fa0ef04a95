// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.ArrayList;
import java.util.List;

/** Parses what {@code nmcli} and {@code iw} print about Wi-Fi networks into {@code [ssid, bssid, signal]}. */
final class WifiListings {
    private WifiListings() {}

    /** {@code nmcli -t -f SSID,BSSID,SIGNAL dev wifi list}: colons in values are escaped as {@code \:}. */
    static List<String[]> nmcli(String out) {
        List<String[]> nets = new ArrayList<>();
        for (String line : out.split("\n")) {
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '\\' && i + 1 < line.length()) {
                    cell.append(line.charAt(++i));
                } else if (c == ':') {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(c);
                }
            }
            cells.add(cell.toString());
            if (cells.size() == 3 && cells.get(1).matches("(?i)([0-9a-f]{2}:){5}[0-9a-f]{2}")) {
                nets.add(new String[] {cells.get(0), cells.get(1), cells.get(2).strip()});
            }
        }
        return nets;
    }

    /** Wireless interface names from {@code iw dev}. */
    static List<String> iwInterfaces(String out) {
        List<String> names = new ArrayList<>();
        for (String line : out.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Interface ")) {
                names.add(t.substring("Interface ".length()).strip());
            }
        }
        return names;
    }

    /** Networks from {@code iw dev IF scan dump}: {@code BSS <mac>}, {@code signal: -40.00 dBm}, {@code SSID: name}. */
    static List<String[]> iwScan(String out) {
        List<String[]> nets = new ArrayList<>();
        String[] cur = null;
        for (String line : out.split("\n")) {
            String t = line.strip();
            if (line.startsWith("BSS ")) {
                cur = new String[] {"", t.substring(4, Math.min(t.length(), 21)), ""};
                nets.add(cur);
            } else if (cur != null && t.startsWith("SSID:")) {
                cur[0] = t.substring(5).strip();
            } else if (cur != null && t.startsWith("signal:")) {
                cur[2] = t.substring(7).strip();
            }
        }
        nets.removeIf(n -> !n[1].matches("(?i)([0-9a-f]{2}:){5}[0-9a-f]{2}"));
        return nets;
    }
}
