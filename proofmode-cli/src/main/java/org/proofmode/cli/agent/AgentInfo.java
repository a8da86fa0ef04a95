// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.proofmode.util.AtomicFiles;

/**
 * What a running agent tells about itself for {@code proofmode status}: its process, since when it runs and
 * how long it may go unused. The agent writes it beside its socket ({@code agent/agent.info}, owner-only,
 * three lines: pid, start time, idle time in seconds) and removes it when it stops.
 *
 * @param pid the agent's process
 * @param since when it started serving
 * @param idle how long it may go unused before it stops; zero for never
 */
public record AgentInfo(long pid, Instant since, Duration idle) {
    /** The file's name in the agent's folder. */
    static final String FILE = "agent.info";

    /** The file of a home's agent. */
    static Path file(Path home) {
        return AgentServer.socket(home).resolveSibling(FILE);
    }

    void write(Path home) throws IOException {
        AtomicFiles.write(file(home), (pid + "\n" + since + "\n" + idle.toSeconds() + "\n").getBytes(StandardCharsets.UTF_8), true, true);
    }

    /**
     * The agent that runs for a home: its file read, if its socket is there and its process alive (a file
     * left by an agent that was killed is no running agent).
     */
    public static Optional<AgentInfo> running(Path home) {
        Path f = file(home);
        if (!Files.exists(AgentServer.socket(home)) || !Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            if (lines.size() < 3) {
                return Optional.empty();
            }
            AgentInfo info = new AgentInfo(Long.parseLong(lines.get(0).strip()), Instant.parse(lines.get(1).strip()),
                    Duration.ofSeconds(Long.parseLong(lines.get(2).strip())));
            return ProcessHandle.of(info.pid()).filter(ProcessHandle::isAlive).map(p -> info);
        } catch (IOException | NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The agent's resident memory in bytes (Linux: VmRSS of /proc/PID/status); empty where the system does not tell. */
    public OptionalLong residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring(6).strip().split("\\s+");
                    return OptionalLong.of(Long.parseLong(parts[0]) * 1024);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process just ended
        }
        return OptionalLong.empty();
    }
}
