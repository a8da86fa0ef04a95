// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code proofmode-testkit/tlog-check}, built from source with Debian's Go and its copy of Go's reference
 * transparency-log code ({@code golang.org/x/mod/sumdb/note} and {@code .../tlog}), offline in GOPATH mode:
 * the reader of our log formats that we did not write.
 */
public final class GoTlogCheck {
    private final Path binary;
    private final Path dir;

    private GoTlogCheck(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
    }

    /**
     * Builds the checker in {@code dir}.
     *
     * @throws IllegalStateException if the repository root is unknown (tests not run by Maven), Go is not
     *     installed, or the build fails
     */
    public static GoTlogCheck build(Path dir) {
        String root = System.getProperty(Samples.ROOT_PROPERTY);
        if (root == null) {
            throw new IllegalStateException("no repository root: run the tests with Maven, which sets " + Samples.ROOT_PROPERTY);
        }
        Path source = Path.of(root).resolve("proofmode-testkit").resolve("tlog-check").resolve("main.go");
        Path binary = dir.resolve("tlog-check");
        ProcessResult built = ExternalTool.run(List.of(ExternalTool.require("go").toString(), "build", "-o", binary.toString(),
                source.toString()), Map.of("GO111MODULE", "off", "GOPATH", "/usr/share/gocode", "GOFLAGS", "", "GOPROXY", "off",
                "GOCACHE", dir.resolve("go-cache").toString(), "HOME", dir.toString()), Duration.ofMinutes(5), dir);
        if (built.exitCode() != 0) {
            throw new IllegalStateException("cannot build tlog-check: " + built.describe());
        }
        return new GoTlogCheck(binary, dir);
    }

    /** Checks an input file of the first form ({@code tlog-check INPUT.json}). */
    public ProcessResult input(Path json) {
        return ExternalTool.run(List.of(binary.toString(), json.toString()), Map.of(), Duration.ofMinutes(1), dir);
    }

    /**
     * Reads a live log over HTTP knowing only its key: checkpoint, tiles, entries, an older checkpoint's
     * consistency and receipts ({@code tlog-check -url URL -key KEY [-old FILE] [RECEIPT...]}).
     */
    public ProcessResult remote(String url, String verifierKey, Path oldCheckpoint, List<Path> receipts) {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "-url", url, "-key", verifierKey));
        if (oldCheckpoint != null) {
            cmd.add("-old");
            cmd.add(oldCheckpoint.toString());
        }
        receipts.forEach(r -> cmd.add(r.toString()));
        return ExternalTool.run(cmd, Map.of(), Duration.ofMinutes(2), dir);
    }
}
