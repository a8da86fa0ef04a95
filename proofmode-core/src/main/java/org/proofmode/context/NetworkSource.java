// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.Hex;
import org.proofmode.util.OsCommand;

/**
 * The network the device is on ({@code Network.*}): the interfaces that are up with their IP addresses
 * and hashed MAC addresses, the IPv4 default gateway (Linux {@code /proc/net/route}), and the visible Wi-Fi
 * networks as {@code nmcli} or {@code iw} lists them, with hashed BSSIDs. Opt-in: this source is not used
 * unless the {@code network} setting is on.
 *
 * <p>Security: MAC addresses and BSSIDs are stored only as keyed hashes ({@link IdentifierHasher}); the
 * loopback interface is left out. A snapshot is reused for {@value #CACHE_SECONDS} seconds, so proving a
 * folder lists Wi-Fi networks once.
 */
public final class NetworkSource implements MetadataSource {
    static final int CACHE_SECONDS = 10;
    static final int MAX_WIFI = 32;

    private final IdentifierHasher ids;
    private final Path procRoute;
    private Snapshot snapshot;

    private record Snapshot(long at, Map<String, String> fields, Optional<String> wifiProblem) {}

    /**
     * A network source.
     *
     * @param ids hashes MAC addresses and BSSIDs
     */
    public NetworkSource(IdentifierHasher ids) {
        this(ids, Path.of("/proc/net/route"));
    }

    NetworkSource(IdentifierHasher ids, Path procRoute) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.procRoute = procRoute;
    }

    @Override
    public String name() {
        return "Network";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) throws SocketException {
        Snapshot s = snapshot();
        s.fields().forEach(record::put);
        s.wifiProblem().ifPresent(m -> record.warn("Network.WiFi", m));
    }

    private synchronized Snapshot snapshot() throws SocketException {
        long now = System.nanoTime();
        if (snapshot == null || now - snapshot.at() > Duration.ofSeconds(CACHE_SECONDS).toNanos()) {
            Map<String, String> f = new LinkedHashMap<>();
            interfaces(f);
            gateway().ifPresent(g -> f.put(ContextFields.NETWORK_GATEWAY, g));
            Optional<String> problem = wifi(f);
            snapshot = new Snapshot(now, f, problem);
        }
        return snapshot;
    }

    private void interfaces(Map<String, String> f) throws SocketException {
        List<String> names = new ArrayList<>();
        List<NetworkInterface> all = Collections.list(NetworkInterface.getNetworkInterfaces());
        all.sort((a, b) -> a.getName().compareTo(b.getName()));
        for (NetworkInterface ni : all) {
            if (!ni.isUp() || ni.isLoopback()) {
                continue;
            }
            String prefix = ContextFields.NETWORK_INTERFACE + ni.getName() + ".";
            names.add(ni.getName());
            byte[] mac = ni.getHardwareAddress();
            if (mac != null && mac.length > 0 && !allZero(mac)) {
                f.put(prefix + "MAC", ids.hash(IdentifierHasher.Kind.MAC, Hex.encode(mac)));
            }
            List<String> addrs = new ArrayList<>();
            for (InterfaceAddress a : ni.getInterfaceAddresses()) {
                addrs.add(address(a.getAddress()) + "/" + a.getNetworkPrefixLength());
            }
            if (!addrs.isEmpty()) {
                f.put(prefix + "Addresses", String.join(" ", addrs));
            }
        }
        f.put(ContextFields.NETWORK_INTERFACES, String.join(" ", names));
    }

    private static String address(InetAddress a) {
        String s = a.getHostAddress();
        int scope = s.indexOf('%');
        return scope < 0 ? s : s.substring(0, scope);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** The IPv4 default route from {@code /proc/net/route}: gateway in little-endian hex, flag 0x2 set. */
    private Optional<String> gateway() {
        try {
            for (String line : Files.readAllLines(procRoute, StandardCharsets.US_ASCII)) {
                String[] c = line.trim().split("\\s+");
                if (c.length > 3 && c[1].equals("00000000") && c[2].matches("[0-9A-Fa-f]{8}")
                        && c[3].matches("[0-9A-Fa-f]+") && (Integer.parseInt(c[3], 16) & 0x2) != 0) {
                    long g = Long.parseLong(c[2], 16);
                    byte[] ip = {(byte) g, (byte) (g >> 8), (byte) (g >> 16), (byte) (g >> 24)};
                    return Optional.of(Inet4Address.getByAddress(ip).getHostAddress() + " (" + c[0] + ")");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: no gateway recorded
        }
        return Optional.empty();
    }

    /** Adds the visible Wi-Fi networks; returns why none could be listed, if so. */
    private Optional<String> wifi(Map<String, String> f) {
        List<String[]> nets;
        if (OsCommand.find("nmcli").isPresent()) {
            Optional<String> out = OsCommand.output(List.of("nmcli", "-t", "-f", "SSID,BSSID,SIGNAL", "dev", "wifi", "list", "--rescan", "no"),
                    Duration.ofSeconds(3));
            if (out.isEmpty()) {
                return Optional.of("nmcli could not list Wi-Fi networks");
            }
            nets = WifiListings.nmcli(out.get());
        } else if (OsCommand.find("iw").isPresent()) {
            nets = new ArrayList<>();
            Optional<String> devs = OsCommand.output(List.of("iw", "dev"), Duration.ofSeconds(2));
            for (String dev : WifiListings.iwInterfaces(devs.orElse(""))) {
                OsCommand.output(List.of("iw", "dev", dev, "scan", "dump"), Duration.ofSeconds(3))
                        .ifPresent(o -> nets.addAll(WifiListings.iwScan(o)));
            }
        } else {
            return Optional.of("neither nmcli nor iw is installed: visible Wi-Fi networks not recorded");
        }
        int n = 0;
        for (String[] net : nets) {
            if (n == MAX_WIFI) {
                break;
            }
            n++;
            String p = ContextFields.NETWORK_WIFI + n + ".";
            f.put(p + "SSID", net[0]);
            f.put(p + "BSSID", ids.hash(IdentifierHasher.Kind.MAC, net[1]));
            if (!net[2].isEmpty()) {
                f.put(p + "Signal", net[2]);
            }
        }
        f.put(ContextFields.NETWORK_WIFI_COUNT, Integer.toString(n));
        return Optional.empty();
    }
}
