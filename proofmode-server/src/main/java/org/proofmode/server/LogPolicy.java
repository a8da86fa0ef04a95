// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server keeps its transparency log.
 *
 * @param origin the origin line of a new log (the key's name); empty for {@code <host name>/proofmode-log}.
 *     An existing log keeps the origin it was made with
 * @param passphraseFile a file holding the log key's passphrase; empty when the key's passphrase was
 *     generated and is kept beside it
 * @param interval how often queued entries are integrated and a checkpoint signed (when there are any)
 */
public record LogPolicy(Optional<String> origin, Optional<Path> passphraseFile, Duration interval) {
    /** The defaults: origin from the host name, a generated passphrase, a checkpoint at most every second. */
    public static final LogPolicy DEFAULT = new LogPolicy(Optional.empty(), Optional.empty(), Duration.ofSeconds(1));

    /** Validates the fields. */
    public LogPolicy {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(passphraseFile, "passphraseFile");
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the log's interval must be positive");
        }
    }

    /** The origin for a new log on this machine. */
    public String originOrDefault() {
        return origin.orElseGet(() -> host() + "/proofmode-log");
    }

    private static String host() {
        String h = System.getenv("HOSTNAME");
        if (h == null || h.isBlank()) {
            try {
                h = Files.readString(Path.of("/etc/hostname")).strip();
            } catch (IOException | RuntimeException e) {
                h = "";
            }
        }
        h = h.replaceAll("[^A-Za-z0-9.-]", "");
        return h.isEmpty() ? "localhost" : h;
    }
}
