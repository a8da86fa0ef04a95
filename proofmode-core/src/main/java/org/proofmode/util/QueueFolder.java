// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The storage of an offline queue: one small file per item in a folder of the home, each written
 * atomically and owner-only, so a queue survives a crash or a restart and a reader never sees half an
 * item. The queues themselves (timestamps, publishing) say what an item is.
 */
public final class QueueFolder {
    private final Path dir;
    private final String name;

    /**
     * Opens (without creating) a queue folder.
     *
     * @param dir the folder
     * @param name the queue's name in messages, such as {@code the timestamp queue}
     */
    public QueueFolder(Path dir, String name) {
        this.dir = dir.toAbsolutePath();
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The folder. */
    public Path dir() {
        return dir;
    }

    /**
     * The item files whose names pass the filter, sorted by name; none if the folder does not exist.
     *
     * @throws ProofModeException with {@link Failure#IO} if the folder cannot be listed
     */
    public List<Path> files(Predicate<String> fileName) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> fileName.test(p.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes an item's file, replacing the one of that name, atomically and owner-only.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public void write(String fileName, byte[] content) {
        try {
            AtomicFiles.privateDirectories(dir);
            AtomicFiles.write(dir.resolve(fileName), content, true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write to " + name + " " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Removes an item's file, if it is there.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be removed
     */
    public void remove(String fileName) {
        try {
            if (Files.deleteIfExists(dir.resolve(fileName))) {
                AtomicFiles.fsyncDirectory(dir);
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot update " + name + " " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The failure for an item file that cannot be read as one: bad data, in one line naming the file (a JSON
     * parser's messages run over several lines, with the location).
     *
     * @param item what an item of this queue is, such as {@code queued timestamp request}
     */
    public static ProofModeException unreadable(Path file, String item, Exception e) {
        String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : String.valueOf(e.getMessage());
        return new ProofModeException(Failure.BAD_DATA, file + ": not a " + item + " (" + why.replaceAll("\\s+", " ").strip() + ")", e);
    }
}
