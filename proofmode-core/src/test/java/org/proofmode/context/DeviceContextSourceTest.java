// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The device source reads the system's own files (DMI, {@code /proc}, {@code /etc}); here they are laid
 * out under a temporary root as a Linux laptop has them.
 */
class DeviceContextSourceTest {
    @TempDir
    Path dir;

    @Test
    void contribute_recordsDmiCpuMemoryDistributionAndClock_fromTheSystemFiles() throws IOException {
        Path root = laptop();

        Map<String, String> f = contribute(device(root, Optional.empty()));

        assertThat(f).containsEntry("Device.Vendor", "LENOVO").containsEntry("Device.Model", "20XW004GGE")
                .containsEntry("Device.CPU", "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz")
                .containsEntry("Device.Memory", Long.toString(16_318_412L * 1024))
                .containsEntry("Device.OS.Distribution", "Debian GNU/Linux 12 (bookworm)")
                .containsKeys("Device.OS.Name", "Device.OS.Version", "Device.Locale", "Device.TimeZone", "Device.Clock.Time");
        assertThat(f.get("Device.Clock.Synchronised")).isIn("true", "false", "unknown");
    }

    @Test
    void contribute_recordsNoIdentifier_whenDeviceIdsAreOff() throws IOException {
        Map<String, String> f = contribute(device(laptop(), Optional.empty()));

        assertThat(f).doesNotContainKeys("Device.Hostname", "Device.Serial", "Device.MachineId");
        assertThat(f.values()).noneMatch(v -> v.contains("PF2KXM7Q") || v.contains("reporter-laptop") || v.contains("4f1c2a9e"));
    }

    @Test
    void contribute_recordsHashedIdentifiersOnly_whenDeviceIdsAreOn() throws IOException {
        IdentifierHasher hasher = new IdentifierHasher(dir.resolve("home"));

        Map<String, String> f = contribute(device(laptop(), Optional.of(hasher)));

        assertThat(f).containsEntry("Device.Hostname", hasher.hash(IdentifierHasher.Kind.HOSTNAME, "reporter-laptop"))
                .containsEntry("Device.Serial", hasher.hash(IdentifierHasher.Kind.SERIAL, "PF2KXM7Q"))
                .containsEntry("Device.MachineId", hasher.hash(IdentifierHasher.Kind.MACHINE_ID, "4f1c2a9e0b7d4e6f8a1b2c3d4e5f6a7b"));
        assertThat(f.values()).noneMatch(v -> v.contains("PF2KXM7Q") || v.contains("reporter-laptop") || v.contains("4f1c2a9e"));
    }

    @Test
    void contribute_leavesOutPlaceholders_thatFirmwareWritesForUnknownValues() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("sys/class/dmi/id/sys_vendor"), "To Be Filled By O.E.M.\n");
        Files.writeString(root.resolve("sys/class/dmi/id/product_name"), "Default string\n");

        Map<String, String> f = contribute(device(root, Optional.empty()));

        assertThat(f).doesNotContainKeys("Device.Vendor", "Device.Model");
    }

    /** A device source on {@code root} whose system bus is a socket that does not exist. */
    private static DeviceContextSource device(Path root, Optional<IdentifierHasher> ids) {
        return new DeviceContextSource(root, ids, SystemBus.at("unix:path=" + root.resolve("no-bus")));
    }

    private Map<String, String> contribute(DeviceContextSource source) throws IOException {
        Path photo = Files.write(dir.resolve("photo.jpg"), new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF});
        ProofRecord.Builder b = ProofRecord.builder();
        source.contribute(new MediaFile(photo, new MediaType(MediaKind.IMAGE, "image/jpeg"), 3, Instant.now()), b);
        return b.build().fields();
    }

    /** The system files of a laptop, under a fresh root. */
    private Path laptop() throws IOException {
        Path root = Files.createTempDirectory(dir, "root");
        write(root, "sys/class/dmi/id/sys_vendor", "LENOVO\n");
        write(root, "sys/class/dmi/id/product_name", "20XW004GGE\n");
        write(root, "sys/class/dmi/id/product_serial", "PF2KXM7Q\n");
        write(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: 11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz\n\n"
                + "processor\t: 1\nmodel name\t: 11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz\n");
        write(root, "proc/meminfo", "MemTotal:       16318412 kB\nMemFree:         1234567 kB\n");
        write(root, "proc/sys/kernel/hostname", "reporter-laptop\n");
        write(root, "etc/os-release", "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n");
        write(root, "etc/machine-id", "4f1c2a9e0b7d4e6f8a1b2c3d4e5f6a7b\n");
        return root;
    }

    private static void write(Path root, String relative, String text) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
