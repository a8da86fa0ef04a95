// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Small text files of the running system ({@code /proc}, {@code /sys}, {@code /etc}) under a root that
 * tests replace with a tree laid out like the kernel's. A file that is missing, unreadable or larger than
 * 1 MiB reads as nothing.
 *
 * @param root the system root, {@code /} in use
 */
record SystemFiles(Path root) {
    /** The lines of a file, or none. */
    List<String> lines(String relative) {
        try {
            Path p = root.resolve(relative);
            return Files.size(p) > 1 << 20 ? List.of() : Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException | UncheckedIOException e) {
            return List.of();
        }
    }

    /** A file's text, lines joined by spaces and stripped, unless that is empty. */
    Optional<String> text(String relative) {
        String v = String.join(" ", lines(relative)).strip();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
