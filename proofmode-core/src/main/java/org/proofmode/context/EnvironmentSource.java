// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.OsCommand;

/**
 * How far the device itself can be trusted ({@code Environment.*}), the desktop's counterpart of the app's
 * SafetyNet note: whether it is a virtual machine or a container ({@code systemd-detect-virt}, else the
 * files it reads under {@code /proc} and {@code /sys}), whether a debugger or tracer is attached to this
 * process ({@code TracerPid} in {@code /proc/self/status}), UEFI Secure Boot's state, whether the kernel
 * sees a TPM, and which agents in this JVM could rewrite classes. Recorded as facts: never used to refuse
 * a proof, and {@code verify} shows them.
 *
 * <p>Always on: these are facts about the software the proof was made with, not about the place or the
 * person. Everything but the tracer is read once per process, starting as the source is made (so that
 * {@code systemd-detect-virt} runs while the key is unlocked); the tracer on every proof.
 */
public final class EnvironmentSource implements MetadataSource {
    /** {@code SecureBoot-<EFI global variable GUID>}: 4 bytes of attributes, then 1 when enabled. */
    static final String SECURE_BOOT_VARIABLE = "sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";

    /** Per system root, for the whole process; started as the first source is made ({@link Reused#EARLY}). */
    private static final Map<Path, CompletableFuture<Map<String, String>>> FIXED = new ConcurrentHashMap<>();

    private final Path root;
    private final boolean askSystemdDetectVirt;

    /** Reads the running system. */
    public EnvironmentSource() {
        this(Path.of("/"), true);
    }

    /** Reads {@code /proc} and {@code /sys} under {@code root}; {@code systemd-detect-virt} only if asked (tests). */
    EnvironmentSource(Path root, boolean askSystemdDetectVirt) {
        this.root = root;
        this.askSystemdDetectVirt = askSystemdDetectVirt;
        FIXED.computeIfAbsent(root, r -> CompletableFuture.supplyAsync(this::fixed, Reused.EARLY));
    }

    @Override
    public String name() {
        return "Environment";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        FIXED.get(root).join().forEach(record::put);
        record.put(ContextFields.ENVIRONMENT_TRACER, tracer());
    }

    private Map<String, String> fixed() {
        Map<String, String> m = new LinkedHashMap<>();
        virtualisation(m);
        m.put(ContextFields.ENVIRONMENT_SECURE_BOOT, secureBoot());
        m.put(ContextFields.ENVIRONMENT_TPM, tpm());
        m.put(ContextFields.ENVIRONMENT_JVM_AGENTS, agents(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        return Collections.unmodifiableMap(m);
    }

    private void virtualisation(Map<String, String> m) {
        if (askSystemdDetectVirt && OsCommand.find("systemd-detect-virt").isPresent()) {
            Optional<String> vm = detect("--vm");
            Optional<String> container = detect("--container");
            if (vm.isPresent() && container.isPresent()) {
                m.put(ContextFields.ENVIRONMENT_VIRTUAL_MACHINE, vm.get());
                m.put(ContextFields.ENVIRONMENT_CONTAINER, container.get());
                m.put(ContextFields.ENVIRONMENT_DETECTED_BY, "systemd-detect-virt");
                return;
            }
        }
        m.put(ContextFields.ENVIRONMENT_VIRTUAL_MACHINE, vmFromFiles());
        m.put(ContextFields.ENVIRONMENT_CONTAINER, containerFromFiles());
        m.put(ContextFields.ENVIRONMENT_DETECTED_BY, "/proc");
    }

    /** {@code systemd-detect-virt --vm|--container}: one word, {@code none} with exit 1. */
    private static Optional<String> detect(String what) {
        return OsCommand.output(List.of("systemd-detect-virt", what), Duration.ofSeconds(2), 0, 1).map(String::strip)
                .filter(s -> s.matches("[a-z0-9-]{1,32}"));
    }

    /** A container manager's own marker files, else the {@code container=} variable of PID 1. */
    String containerFromFiles() {
        if (Files.exists(root.resolve(".dockerenv"))) {
            return "docker";
        }
        if (Files.exists(root.resolve("run/.containerenv"))) {
            return "podman";
        }
        Optional<String> wsl = read("proc/sys/kernel/osrelease").filter(r -> r.toLowerCase(Locale.ROOT).contains("microsoft"));
        if (wsl.isPresent()) {
            return "wsl";
        }
        try {
            byte[] env = Files.readAllBytes(root.resolve("proc/1/environ"));
            for (String v : new String(env, StandardCharsets.UTF_8).split("\0")) {
                if (v.startsWith("container=") && v.substring(10).matches("[a-z0-9-]{1,32}")) {
                    return v.substring(10);
                }
            }
        } catch (IOException | SecurityException e) {
            // PID 1's environment is root's to read: not knowing is not a container
        }
        return "none";
    }

    /** The CPU's hypervisor flag, then the hypervisor's DMI vendor when it names one. */
    String vmFromFiles() {
        boolean flag = lines("proc/cpuinfo").stream().anyMatch(l -> l.startsWith("flags") && (" " + l + " ").contains(" hypervisor "));
        String vendor = (read("sys/class/dmi/id/sys_vendor").orElse("") + " " + read("sys/class/dmi/id/product_name").orElse(""))
                .toLowerCase(Locale.ROOT);
        for (String[] v : new String[][] {{"qemu", "qemu"}, {"kvm", "kvm"}, {"vmware", "vmware"}, {"virtualbox", "oracle"},
            {"microsoft corporation virtual", "microsoft"}, {"xen", "xen"}, {"amazon ec2", "amazon"}, {"google compute", "google"}}) {
            if (vendor.contains(v[0])) {
                return v[1];
            }
        }
        return flag ? "unknown hypervisor" : "none";
    }

    /** The command name of the process tracing this one, from {@code TracerPid}. */
    String tracer() {
        for (String l : lines("proc/self/status")) {
            if (l.startsWith("TracerPid:")) {
                String pid = l.substring(10).strip();
                if (pid.equals("0")) {
                    return "none";
                }
                if (pid.matches("\\d{1,10}")) {
                    return read("proc/" + pid + "/comm").map(c -> c.replaceAll("[^\\x20-\\x7e]", "?")).orElse("pid " + pid);
                }
            }
        }
        return "unknown";
    }

    String secureBoot() {
        Path var = root.resolve(SECURE_BOOT_VARIABLE);
        if (!Files.isDirectory(root.resolve("sys/firmware/efi"))) {
            return "unsupported";
        }
        try {
            byte[] b = Files.readAllBytes(var);
            return b.length == 5 ? (b[4] == 1 ? "enabled" : "disabled") : "unknown";
        } catch (IOException | SecurityException e) {
            return Files.isDirectory(root.resolve("sys/firmware/efi/efivars")) ? "disabled" : "unknown";
        }
    }

    String tpm() {
        Path tpm = root.resolve("sys/class/tpm/tpm0");
        if (!Files.exists(tpm)) {
            return "none";
        }
        return read("sys/class/tpm/tpm0/tpm_version_major").map(v -> v.equals("1") ? "1.2" : v).orElse("present");
    }

    /** The agents among the JVM's options, by file or library name: paths could name the person. */
    static String agents(List<String> jvmArguments) {
        List<String> found = new ArrayList<>();
        for (String a : jvmArguments) {
            for (String opt : new String[] {"-javaagent:", "-agentlib:", "-agentpath:"}) {
                if (a.startsWith(opt)) {
                    String what = a.substring(opt.length()).split("[=,]", 2)[0];
                    what = what.substring(Math.max(what.lastIndexOf('/'), what.lastIndexOf('\\')) + 1);
                    found.add(opt.substring(1) + what.replaceAll("[^A-Za-z0-9._+-]", "?"));
                }
            }
        }
        return found.isEmpty() ? "none" : String.join(" ", found);
    }

    private List<String> lines(String relative) {
        return new SystemFiles(root).lines(relative);
    }

    private Optional<String> read(String relative) {
        return new SystemFiles(root).text(relative);
    }
}
