// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Paths given on the command line, including names whose bytes the JVM could not decode. Java decodes
 * {@code argv} with the locale's charset before any code runs, so a name that is not valid in it (bytes
 * that are not UTF-8 under a UTF-8 locale; any byte above 127 under C/POSIX) arrives with U+FFFD in place
 * of the bytes, and can no longer be opened. A folder listing keeps the real bytes, so such a name is
 * looked up in its folder: the one entry whose decoded name equals the argument is the file meant. Two
 * entries that decode alike are not guessed between.
 */
final class CommandLinePaths implements CommandLine.ITypeConverter<Path> {
    private static final char LOST = '\uFFFD';

    private final Path cwd;

    /** Resolves lookups of relative names against {@code cwd} (the caller's working folder). */
    CommandLinePaths(Path cwd) {
        this.cwd = cwd;
    }

    @Override
    public Path convert(String value) {
        if (value.indexOf(LOST) < 0) {
            return Path.of(value);
        }
        try {
            Path p = Path.of(value);
            if (Files.exists(cwd.resolve(p), LinkOption.NOFOLLOW_LINKS)) {
                return p;
            }
        } catch (InvalidPathException e) {
            // not representable in this locale's charset: look it up below
        }
        Path found = lookUp(value);
        if (found == null) {
            throw new CommandLine.TypeConversionException(value + ": no such file (or several whose names are not valid in this "
                    + "locale's character set; run under a UTF-8 locale, or give their folder)");
        }
        return found;
    }

    /** The path named by {@code value}, each segment with U+FFFD found in its folder, or null. */
    private Path lookUp(String value) {
        boolean absolute = value.startsWith("/");
        Path at = absolute ? Path.of("/") : Path.of("");
        for (String segment : value.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (segment.indexOf(LOST) < 0) {
                at = at.resolve(segment);
                continue;
            }
            Path folder = cwd.resolve(at);
            List<Path> matches = new ArrayList<>();
            try (Stream<Path> entries = Files.list(folder)) {
                entries.filter(e -> e.getFileName().toString().equals(segment)).forEach(matches::add);
            } catch (IOException | InvalidPathException e) {
                return null;
            }
            if (matches.size() != 1) {
                return null;
            }
            at = at.resolve(matches.get(0).getFileName());
        }
        return at;
    }
}
