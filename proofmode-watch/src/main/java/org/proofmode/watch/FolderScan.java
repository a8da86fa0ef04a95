// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Walks a watched folder: every entry but folders (regular files, and symbolic links, FIFOs, devices and
 * sockets, which the watcher logs as skipped), not hidden ones, not inside hidden folders or the ProofMode
 * home. Links are never followed.
 */
final class FolderScan {
    private FolderScan() {}

    /**
     * Calls {@code file} for each file; folders that cannot be read are reported to {@code problem} and skipped.
     *
     * @param root the watched folder
     * @param recursive whether to go below it
     * @param home the ProofMode home, never walked
     */
    static void walk(Path root, boolean recursive, Path home, Consumer<Path> file, Consumer<String> problem) {
        try {
            Files.walkFileTree(root, Set.of(), recursive ? Integer.MAX_VALUE : 1, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(root) && (hidden(dir) || dir.startsWith(home))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    if (!attrs.isDirectory() && !hidden(f)) {
                        file.accept(f);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    if (!(e instanceof NoSuchFileException)) {
                        problem.accept(f + ": cannot read: " + e.getMessage());
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problem.accept(root + ": cannot read: " + e.getMessage());
        }
    }

    /** Hidden files are left alone: editors and copy tools write into them before renaming. */
    static boolean hidden(Path p) {
        Path name = p.getFileName();
        return name != null && name.toString().startsWith(".");
    }
}
