// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Finds which of some files a process has open for writing, from {@code /proc/<pid>/fd} and
 * {@code /proc/<pid>/fdinfo} (Linux and Android). Only processes this user may inspect are seen; where
 * there is no {@code /proc}, nothing is known and the watcher relies on the file's size and time alone.
 */
final class OpenWriters {
    private static final Path PROC = Path.of("/proc");
    private static final int O_ACCMODE = 3;

    private OpenWriters() {}

    /** Tells whether writers can be seen on this system. */
    static boolean supported() {
        return Files.isDirectory(PROC.resolve("self").resolve("fd"));
    }

    /**
     * Returns those of {@code files} that some process has open for writing.
     *
     * @param files absolute, normalised paths
     */
    static Set<Path> among(Set<Path> files) {
        Set<Path> out = new HashSet<>();
        if (files.isEmpty() || !supported()) {
            return out;
        }
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path pid : pids) {
                scan(pid, files, out);
            }
        } catch (IOException e) {
            // /proc vanished or is unreadable: nothing is known
        }
        return out;
    }

    private static void scan(Path pid, Set<Path> files, Set<Path> out) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd"))) {
            for (Path fd : fds) {
                Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (IOException e) {
                    continue;
                }
                if (files.contains(target) && writable(pid, fd.getFileName().toString()).orElse(true)) {
                    out.add(target);
                }
            }
        } catch (IOException e) {
            // another user's process, or it exited
        }
    }

    private static Optional<Boolean> writable(Path pid, String fd) {
        try {
            for (String line : Files.readAllLines(pid.resolve("fdinfo").resolve(fd))) {
                if (line.startsWith("flags:")) {
                    int flags = Integer.parseInt(line.substring(6).trim(), 8);
                    return Optional.of((flags & O_ACCMODE) != 0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // closed meanwhile, or unreadable: assume the worst
        }
        return Optional.empty();
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
