// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.IoErrors;

/**
 * A folder of proof sets, one sub-folder per media SHA-256 ({@code <root>/<h>/}).
 *
 * <p>Crash safety: a set is written into a temporary folder, every file and the folder are flushed,
 * then the folder is renamed to {@code <h>} in one step. A reader therefore sees a whole set or none.
 * Leftovers of an interrupted write are removed by {@link #recover()}.
 */
public final class ProofStore {
    private static final String OLD_PREFIX = ".old-";
    private static final int RENAME_ATTEMPTS = 8;

    /** A temporary folder untouched this long was left by a process that died; younger ones may be in use. */
    static final Duration STALE_AFTER = Duration.ofMinutes(15);

    private final Path root;

    /** Opens (without creating) a store folder. */
    public ProofStore(Path root) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath();
    }

    /** Returns the store's folder. */
    public Path root() {
        return root;
    }

    /** Returns the folder of a proof set, whether or not it exists. */
    public Path folder(String sha256) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        return root.resolve(sha256.toLowerCase(Locale.ROOT));
    }

    /** Returns the folder of an existing, complete proof set. */
    public Optional<Path> find(String sha256) {
        Path dir = folder(sha256);
        String h = dir.getFileName().toString();
        for (String name : List.of(ProofFiles.mediaSig(h), ProofFiles.json(h), ProofFiles.jsonSig(h), ProofFiles.csv(h),
                ProofFiles.csvSig(h), ProofFiles.PUBKEY)) {
            if (!Files.isRegularFile(dir.resolve(name))) {
                return Optional.empty();
            }
        }
        return Optional.of(dir);
    }

    /** Lists the hashes of all proof sets, sorted. */
    public List<String> list() {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (Stream<Path> s = Files.list(root)) {
            s.map(p -> p.getFileName().toString()).filter(Hex::isSha256).sorted().forEach(out::add);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot list " + root + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Writes a proof set atomically.
     *
     * @param sha256 the media hash naming the set
     * @param files file name to content
     * @param replace whether an existing set is replaced
     * @return the set's folder, and whether a set existed and was kept
     * @throws ProofModeException with {@link Failure#IO} if the disk refuses the write; the store then
     *     holds the previous set or none, never a part
     */
    public Written write(String sha256, Map<String, byte[]> files, boolean replace) {
        Path target = folder(sha256);
        if (!replace && Files.isDirectory(target)) {
            return new Written(target, true);
        }
        Path tmp = root.resolve(AtomicFiles.TEMP_PREFIX + sha256 + "-" + UUID.randomUUID());
        try {
            AtomicFiles.privateDirectories(tmp);
            AtomicFiles.writeNewDurably(tmp, files);
            if (Files.isDirectory(target)) {
                if (!replace) {
                    return new Written(target, true);
                }
                Path old = root.resolve(OLD_PREFIX + sha256 + "-" + UUID.randomUUID());
                try {
                    AtomicFiles.moveAtomic(target, old, false);
                } catch (NoSuchFileException e) {
                    // Another writer moved it away first; ours goes in its place below.
                }
                if (!moveUnlessTaken(tmp, target)) {
                    // Another writer's whole set got there first: keep it, drop the one we moved aside.
                    AtomicFiles.deleteTree(old);
                    return new Written(target, true);
                }
                AtomicFiles.fsyncDirectory(root);
                AtomicFiles.deleteTree(old);
            } else {
                if (!moveUnlessTaken(tmp, target)) {
                    return new Written(target, true);
                }
                AtomicFiles.fsyncDirectory(root);
            }
            return new Written(target, false);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write proof to " + target + " (" + IoErrors.describe(e) + ")", e);
        } finally {
            try {
                AtomicFiles.deleteTree(tmp);
            } catch (IOException e) {
                // left for recover()
            }
        }
    }

    /**
     * Renames a complete temporary folder to its final name, unless another writer's folder took that name
     * first. Linux reports a non-empty target folder as {@code ENOTEMPTY}, which Java maps to a plain
     * {@link FileSystemException}, so the outcome is decided by looking at the target; when a
     * third writer has moved the target aside in between, the rename is tried again.
     *
     * @return whether our folder is now the target
     */
    private static boolean moveUnlessTaken(Path tmp, Path target) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                AtomicFiles.moveAtomic(tmp, target, false);
                return true;
            } catch (IOException e) {
                if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    return false;
                }
                if (attempt == RENAME_ATTEMPTS || !Files.isDirectory(tmp)) {
                    throw e;
                }
            }
        }
    }

    private static boolean olderThan(Path p, Instant cutoff) throws IOException {
        try {
            return Files.getLastModifiedTime(p).toInstant().isBefore(cutoff);
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** Where a set was written, and whether an existing set was kept instead. */
    public record Written(Path folder, boolean existing) {}

    /**
     * Cleans up after an interrupted write: removes temporary folders left by a process that died, and
     * puts back a set that was being replaced when it died. Folders younger than {@link #STALE_AFTER}
     * may belong to a write in progress, here or in another process, and are left alone.
     */
    public void recover() {
        if (!Files.isDirectory(root)) {
            return;
        }
        Instant cutoff = Instant.now().minus(STALE_AFTER);
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String name = p.getFileName().toString();
                if ((name.startsWith(AtomicFiles.TEMP_PREFIX) || name.startsWith(OLD_PREFIX)) && !olderThan(p, cutoff)) {
                    continue;
                }
                if (name.startsWith(AtomicFiles.TEMP_PREFIX)) {
                    AtomicFiles.deleteTree(p);
                } else if (name.startsWith(OLD_PREFIX) && name.length() >= OLD_PREFIX.length() + 64) {
                    Path original = root.resolve(name.substring(OLD_PREFIX.length(), OLD_PREFIX.length() + 64));
                    if (Files.exists(original)) {
                        AtomicFiles.deleteTree(p);
                    } else {
                        AtomicFiles.moveAtomic(p, original, false);
                    }
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot clean up " + root + ": " + e.getMessage(), e);
        }
    }
}
