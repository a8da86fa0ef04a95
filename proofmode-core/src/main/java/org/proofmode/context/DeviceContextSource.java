// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The device in detail ({@code Device.*}): operating system and distribution, hardware vendor and model
 * (DMI where readable), processor, memory, locale, time zone, and the clock: its time when the proof was
 * made and whether it is synchronised to a time server, so a verifier can judge the proof's times. With
 * device identifiers on, it adds hashed identifiers: host name, DMI product serial, machine id.
 *
 * <p>Facts that do not change while a process runs are read once per process; the clock's trust
 * ({@link ClockTrust}: synchronised or not, the time service, its server, the last synchronisation and the
 * offset) is asked as the source is made and again after 10 seconds ({@link Reused}). Where the operating system does not
 * say whether the clock is synchronised (no timedated or timesyncd on the system bus, no {@code chronyc}),
 * the field says {@code unknown}.
 */
public final class DeviceContextSource implements MetadataSource {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ISO_INSTANT;

    private final Path root;
    private final Optional<IdentifierHasher> ids;
    private final SystemBus bus;

    /**
     * What was read, per system root, for the whole process: every command an agent or a server runs
     * builds its own sources, and a proof of one photo should not spawn {@code timedatectl} each time.
     */
    private static final Map<Path, Map<String, String>> FIXED = new ConcurrentHashMap<>();
    /** Per system root: the clock's reading, shared by every source of the process. */
    private static final Map<Path, Reused> CLOCKS = new ConcurrentHashMap<>();

    /**
     * Reads the running system.
     *
     * @param ids hashes identifiers; present only when device identifiers are on
     */
    public DeviceContextSource(Optional<IdentifierHasher> ids) {
        this(Path.of("/"), ids, SystemBus.system());
    }

    /** Reads system files under {@code root} instead of {@code /} and asks {@code bus} (for tests). */
    DeviceContextSource(Path root, Optional<IdentifierHasher> ids, SystemBus bus) {
        this.root = root;
        this.ids = ids;
        this.bus = bus;
        CLOCKS.computeIfAbsent(root, k -> new Reused()).start(this::readClock);
    }

    @Override
    public String name() {
        return "Device";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        fixed().forEach(record::put);
        ZoneId zone = ZoneId.systemDefault();
        record.put(ContextFields.DEVICE_TIME_ZONE, zone.getId());
        record.put(ContextFields.DEVICE_TIME_ZONE_OFFSET, zone.getRules().getOffset(media.proofTime()).getId().replace("Z", "+00:00"));
        record.put(ContextFields.DEVICE_CLOCK_TIME, MILLIS.format(Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        ClockTrust.Reading clock = clock();
        for (String k : ClockTrust.FIELDS) {
            Optional.ofNullable(clock.fields().get(k)).ifPresent(v -> record.put(k, v));
        }
        clock.problem().ifPresent(p -> record.warn("Clock", p));
        if (ids.isPresent()) {
            IdentifierHasher h = ids.get();
            hostname().ifPresent(n -> record.put(ContextFields.DEVICE_HOSTNAME, h.hash(IdentifierHasher.Kind.HOSTNAME, n)));
            read("sys/class/dmi/id/product_serial").ifPresent(s -> record.put(ContextFields.DEVICE_SERIAL, h.hash(IdentifierHasher.Kind.SERIAL, s)));
            read("etc/machine-id").ifPresent(s -> record.put(ContextFields.DEVICE_MACHINE_ID, h.hash(IdentifierHasher.Kind.MACHINE_ID, s)));
        }
    }

    private Map<String, String> fixed() {
        return FIXED.computeIfAbsent(root, r -> {
            Map<String, String> m = new LinkedHashMap<>();
            m.put(ContextFields.DEVICE_OS_NAME, System.getProperty("os.name", ""));
            m.put(ContextFields.DEVICE_OS_VERSION, System.getProperty("os.version", ""));
            osRelease().ifPresent(d -> m.put(ContextFields.DEVICE_OS_DISTRIBUTION, d));
            read("sys/class/dmi/id/sys_vendor").ifPresent(v -> m.put(ContextFields.DEVICE_VENDOR, v));
            read("sys/class/dmi/id/product_name").ifPresent(v -> m.put(ContextFields.DEVICE_MODEL, v));
            m.put(ContextFields.DEVICE_CPU, cpuModel().orElse(System.getProperty("os.arch", "")));
            m.put(ContextFields.DEVICE_CPU_COUNT, Integer.toString(Runtime.getRuntime().availableProcessors()));
            memory().ifPresent(v -> m.put(ContextFields.DEVICE_MEMORY, v));
            m.put(ContextFields.DEVICE_LOCALE, Locale.getDefault().toLanguageTag());
            return Collections.unmodifiableMap(m);
        });
    }

    /** The {@code Device.Clock.*} fields, and why the bus could not tell if it failed. */
    private ClockTrust.Reading clock() {
        Reused.Reading r = CLOCKS.computeIfAbsent(root, k -> new Reused()).get(this::readClock);
        return new ClockTrust.Reading(r.fields(), r.problem());
    }

    private Reused.Reading readClock() {
        ClockTrust.Reading c = ClockTrust.read(root, bus);
        return new Reused.Reading(c.fields(), c.problem());
    }

    private Optional<String> hostname() {
        Optional<String> h = read("proc/sys/kernel/hostname").or(() -> read("etc/hostname"));
        if (h.isEmpty()) {
            h = Optional.ofNullable(System.getenv("COMPUTERNAME")).or(() -> Optional.ofNullable(System.getenv("HOSTNAME")))
                    .filter(s -> !s.isBlank());
        }
        return h;
    }

    private Optional<String> osRelease() {
        return lines("etc/os-release").stream().filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring("PRETTY_NAME=".length()).replaceAll("^\"|\"$", "")).findFirst();
    }

    private Optional<String> cpuModel() {
        return lines("proc/cpuinfo").stream().filter(l -> l.startsWith("model name") || l.startsWith("Model\t") || l.startsWith("Hardware"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).filter(s -> !s.isEmpty()).findFirst();
    }

    private Optional<String> memory() {
        return lines("proc/meminfo").stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> l.replaceAll("[^0-9]", "")).filter(s -> !s.isEmpty())
                .map(kb -> Long.toString(Long.parseLong(kb) * 1024)).findFirst();
    }

    private List<String> lines(String relative) {
        return new SystemFiles(root).lines(relative);
    }

    private Optional<String> read(String relative) {
        return new SystemFiles(root).text(relative)
                .filter(v -> !v.equalsIgnoreCase("To Be Filled By O.E.M.") && !v.equalsIgnoreCase("Default string"));
    }
}
