// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.proof.ContextFields;
import org.proofmode.util.OsCommand;

/**
 * Where the system clock's time came from, as the services that set it say: systemd-timedated and
 * systemd-timesyncd over D-Bus (synchronised or not, NTP on or off, the server, the last exchange with it
 * and the offset it measured), else chrony ({@code chronyc -c tracking}), else systemd-timesyncd's
 * {@code /run/systemd/timesync/synchronized} flag. What none of them tells stays {@code unknown}.
 *
 * <p>Offsets are the local clock minus the server's time, in seconds: timesyncd's from the last NTP
 * exchange's four timestamps, {@code -((T2 - T1) + (T3 - T4)) / 2}; chrony's is its current correction,
 * negated.
 */
final class ClockTrust {
    static final String TIMEDATED = "org.freedesktop.timedate1";
    static final String TIMESYNCD = "org.freedesktop.timesync1";

    /** The fields this reads, in the order a record lists them. */
    static final List<String> FIELDS = List.of(ContextFields.DEVICE_CLOCK_SYNCHRONISED, ContextFields.DEVICE_CLOCK_SOURCE,
            ContextFields.DEVICE_CLOCK_NTP, ContextFields.DEVICE_CLOCK_SERVICE, ContextFields.DEVICE_CLOCK_SERVER,
            ContextFields.DEVICE_CLOCK_STRATUM, ContextFields.DEVICE_CLOCK_LAST_SYNC, ContextFields.DEVICE_CLOCK_OFFSET);

    private ClockTrust() {}

    /**
     * Reads what the system says about its clock.
     *
     * @param root the system root (for the timesyncd flag file)
     * @param bus the system bus
     * @return the fields, and a problem when the bus was there but did not answer
     */
    static Reading read(Path root, SystemBus bus) {
        Map<String, String> f = new LinkedHashMap<>();
        Optional<String> problem = Optional.empty();
        try {
            bus.read(SystemBus.TIMEOUT, c -> {
                fromBus(c, f);
                return null;
            });
        } catch (SystemBus.Absent e) {
            // no system bus (a container, another OS): the tools below may still tell
        } catch (Exception e) {
            f.clear();
            problem = Optional.of("timedated/timesyncd: " + SystemBus.why(e));
        }
        if (!f.containsKey(ContextFields.DEVICE_CLOCK_SYNCHRONISED)) {
            fromChrony(f);
        }
        if (!f.containsKey(ContextFields.DEVICE_CLOCK_SYNCHRONISED) && Files.exists(root.resolve("run/systemd/timesync/synchronized"))) {
            f.put(ContextFields.DEVICE_CLOCK_SYNCHRONISED, "true");
            f.put(ContextFields.DEVICE_CLOCK_SOURCE, "systemd-timesyncd");
        }
        f.putIfAbsent(ContextFields.DEVICE_CLOCK_SYNCHRONISED, "unknown");
        return new Reading(Map.copyOf(f), problem);
    }

    /**
     * What was learnt.
     *
     * @param fields the {@code Device.Clock.*} fields, always with {@link ContextFields#DEVICE_CLOCK_SYNCHRONISED}
     * @param problem why the services on the bus could not be asked, when they were there but failed
     */
    record Reading(Map<String, String> fields, Optional<String> problem) {}

    private static void fromBus(SystemBus.Connection c, Map<String, String> f) throws Exception {
        if (c.running(TIMEDATED)) {
            Map<String, Object> p = c.properties(TIMEDATED, "/org/freedesktop/timedate1", TIMEDATED);
            if (p.get("NTPSynchronized") instanceof Boolean s) {
                f.put(ContextFields.DEVICE_CLOCK_SYNCHRONISED, s.toString());
                f.put(ContextFields.DEVICE_CLOCK_SOURCE, "timedated");
            }
            if (p.get("NTP") instanceof Boolean ntp) {
                f.put(ContextFields.DEVICE_CLOCK_NTP, ntp ? "on" : "off");
            }
        }
        if (c.running(TIMESYNCD)) {
            Map<String, Object> p = c.properties(TIMESYNCD, "/org/freedesktop/timesync1", TIMESYNCD + ".Manager");
            f.put(ContextFields.DEVICE_CLOCK_SERVICE, "systemd-timesyncd");
            if (p.get("ServerName") instanceof String s && !s.isBlank()) {
                f.put(ContextFields.DEVICE_CLOCK_SERVER, s);
            }
            ntpMessage(p.get("NTPMessage"), f);
            if (!f.containsKey(ContextFields.DEVICE_CLOCK_SOURCE) && f.containsKey(ContextFields.DEVICE_CLOCK_LAST_SYNC)) {
                f.put(ContextFields.DEVICE_CLOCK_SOURCE, "systemd-timesyncd");
            }
        }
    }

    /**
     * timesyncd's {@code NTPMessage} {@code (uuuuittayttttbtt)}: leap, version, mode, stratum, precision,
     * root delay, root dispersion, reference id, then origin, receive, transmit and destination
     * timestamps in microseconds of the realtime clock, spike, packet count, jitter.
     */
    static void ntpMessage(Object message, Map<String, String> f) {
        if (!(message instanceof List<?> m) || m.size() < 12) {
            return;
        }
        if (m.get(3) instanceof Long stratum && stratum > 0 && stratum < 16) {
            f.put(ContextFields.DEVICE_CLOCK_STRATUM, stratum.toString());
        }
        if (m.get(8) instanceof Long t1 && m.get(9) instanceof Long t2 && m.get(10) instanceof Long t3 && m.get(11) instanceof Long t4
                && t1 > 0 && t4 > 0) {
            f.put(ContextFields.DEVICE_CLOCK_LAST_SYNC, Instant.EPOCH.plus(t4, ChronoUnit.MICROS).truncatedTo(ChronoUnit.MILLIS).toString());
            long theta = ((t2 - t1) + (t3 - t4)) / 2;
            f.put(ContextFields.DEVICE_CLOCK_OFFSET, seconds(BigDecimal.valueOf(-theta, 6)));
        }
    }

    private static void fromChrony(Map<String, String> f) {
        if (OsCommand.find("chronyc").isEmpty()) {
            return;
        }
        OsCommand.output(List.of("chronyc", "-c", "-n", "tracking"), Duration.ofSeconds(2)).ifPresent(out -> chrony(out, f));
    }

    /**
     * {@code chronyc -c tracking}: reference id, server, stratum, reference time (Unix seconds), current
     * correction, last offset, RMS offset, frequency, residual frequency, skew, root delay, root dispersion,
     * update interval, leap status.
     */
    static void chrony(String out, Map<String, String> f) {
        String[] c = out.strip().split(",");
        if (c.length < 14) {
            return;
        }
        String leap = c[13].strip();
        f.put(ContextFields.DEVICE_CLOCK_SYNCHRONISED, leap.equals("Not synchronised") ? "false" : "true");
        f.put(ContextFields.DEVICE_CLOCK_SOURCE, "chronyc");
        f.put(ContextFields.DEVICE_CLOCK_SERVICE, "chronyd");
        if (!c[1].isBlank() && !leap.equals("Not synchronised")) {
            f.put(ContextFields.DEVICE_CLOCK_SERVER, c[1].strip());
        }
        try {
            int stratum = Integer.parseInt(c[2].strip());
            if (stratum > 0 && stratum < 16) {
                f.put(ContextFields.DEVICE_CLOCK_STRATUM, Integer.toString(stratum));
            }
            BigDecimal ref = new BigDecimal(c[3].strip());
            if (ref.signum() > 0) {
                f.put(ContextFields.DEVICE_CLOCK_LAST_SYNC, Instant.EPOCH.plusMillis(ref.movePointRight(3).longValue()).toString());
                f.put(ContextFields.DEVICE_CLOCK_OFFSET, seconds(new BigDecimal(c[4].strip()).negate()));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // a field chrony left empty: the rest stands
        }
    }

    private static String seconds(BigDecimal s) {
        return s.setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    }
}
