// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environment's integrity from {@code /proc} and {@code /sys} laid out under a temporary root as the
 * kernel has them (the comparison with {@code systemd-detect-virt} on the machine itself is in the command
 * line's {@code SystemServicesIT}).
 */
class EnvironmentSourceTest {
    @TempDir
    Path root;

    @Test
    void files_sayBareMetal_withSecureBootAndTpm2_onAnOrdinaryLaptop() throws IOException {
        write("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep\n");
        write("sys/class/dmi/id/sys_vendor", "LENOVO");
        write("proc/self/status", "Name:\tjava\nState:\tS (sleeping)\nTracerPid:\t0\n");
        Files.createDirectories(root.resolve("sys/firmware/efi/efivars"));
        Files.write(root.resolve(EnvironmentSource.SECURE_BOOT_VARIABLE), new byte[] {6, 0, 0, 0, 1});
        write("sys/class/tpm/tpm0/tpm_version_major", "2");
        EnvironmentSource e = new EnvironmentSource(root, false);

        assertThat(e.vmFromFiles()).isEqualTo("none");
        assertThat(e.containerFromFiles()).isEqualTo("none");
        assertThat(e.tracer()).isEqualTo("none");
        assertThat(e.secureBoot()).isEqualTo("enabled");
        assertThat(e.tpm()).isEqualTo("2");
    }

    @Test
    void files_sayVmContainerAndTracer_whenTheKernelShowsThem() throws IOException {
        write("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n");
        write("sys/class/dmi/id/sys_vendor", "QEMU");
        write("proc/self/status", "Name:\tjava\nTracerPid:\t4242\n");
        write("proc/4242/comm", "gdb");
        write(".dockerenv", "");
        Files.createDirectories(root.resolve("sys/firmware/efi/efivars"));
        Files.write(root.resolve(EnvironmentSource.SECURE_BOOT_VARIABLE), new byte[] {6, 0, 0, 0, 0});
        EnvironmentSource e = new EnvironmentSource(root, false);

        assertThat(e.vmFromFiles()).isEqualTo("qemu");
        assertThat(e.containerFromFiles()).isEqualTo("docker");
        assertThat(e.tracer()).isEqualTo("gdb");
        assertThat(e.secureBoot()).isEqualTo("disabled");
        assertThat(e.tpm()).isEqualTo("none");
    }

    @Test
    void files_readPid1sContainerVariable_andBiosWithoutUefi() throws IOException {
        Files.createDirectories(root.resolve("proc/1"));
        Files.write(root.resolve("proc/1/environ"), "PATH=/usr/bin\0container=lxc\0TERM=linux\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        write("proc/cpuinfo", "flags\t\t: fpu hypervisor\n");
        EnvironmentSource e = new EnvironmentSource(root, false);

        assertThat(e.containerFromFiles()).isEqualTo("lxc");
        assertThat(e.vmFromFiles()).isEqualTo("unknown hypervisor");
        assertThat(e.secureBoot()).isEqualTo("unsupported");
    }

    @Test
    void agents_namesJavaAgentsAndNativeAgents_butNoPaths() {
        assertThat(EnvironmentSource.agents(List.of("-Xmx1g", "-Dfoo=bar"))).isEqualTo("none");
        assertThat(EnvironmentSource.agents(List.of("-javaagent:/home/alice/tools/byteman.jar=script:x.btm",
                "-agentlib:jdwp=transport=dt_socket,server=y", "-agentpath:/opt/yourkit/libyjpagent.so=port=1")))
                .isEqualTo("javaagent:byteman.jar agentlib:jdwp agentpath:libyjpagent.so");
    }

    private void write(String relative, String text) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
