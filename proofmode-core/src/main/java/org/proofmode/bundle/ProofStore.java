// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.RecipientStanzaWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import org.proofmode.util.QueueFolder;

/**
 * A folder of proof sets, one sub-folder per media SHA-256 ({@code <root>/<h>/}), or, for an
 * {@linkplain #encrypted encrypted store}, per set with a random name and sealed files ({@link SealedSets}).
 *
 * <p>Crash safety: a set is written into a temporary folder, every file and the folder are flushed,
 * then the folder is renamed to {@code <h>} in one step, and the store folder is flushed before the writer
 * is told the set is stored. A reader therefore sees a whole set or none. Sets written at the same time
 * by several threads are flushed together ({@link GroupCommit}): fewer flushes, the same guarantee.
 * Leftovers of an interrupted write are removed by {@link #recover()}.
 */
public final class ProofStore {
    private static final String OLD_PREFIX = ".old-";
    /** In the folder of an encrypted store: says so even once its keys are wiped. */
    public static final String ENCRYPTED_MARKER = ".encrypted";
    private static final int RENAME_ATTEMPTS = 8;
    /** The most proof sets written at the same time that are made durable together. */
    public static final int SETS_COMMITTED_TOGETHER = GroupCommit.MAX_SETS;

    /** A temporary folder untouched this long was left by a process that died; younger ones may be in use. */
    static final Duration STALE_AFTER = Duration.ofMinutes(15);

    private final Path root;
    private final Optional<SealedSets> sealed;
    private final GroupCommit commits;

    /** Opens (without creating) a store folder. */
    public ProofStore(Path root) {
        this(root, GroupCommit.SHARED);
    }

    /** Opens a store folder whose sets are made durable by these group commits. */
    ProofStore(Path root, GroupCommit commits) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath();
        this.sealed = Optional.empty();
        this.commits = Objects.requireNonNull(commits, "commits");
    }

    private ProofStore(Path root, SealedSets sealed) {
        this.root = root.toAbsolutePath();
        this.sealed = Optional.of(sealed);
        this.commits = GroupCommit.SHARED;
    }

    /**
     * Opens (without creating) an encrypted store folder ({@link SealedSets}): sets are sealed to the
     * recipient; finding, listing and reading them needs the identity.
     *
     * @param recipient writes the store's X25519 stanza (for its {@code age1…} recipient)
     * @param identity opens the store's objects, when unlocked
     */
    public static ProofStore encrypted(Path root, RecipientStanzaWriter recipient, Optional<RecipientStanzaReader> identity) {
        return new ProofStore(root, new SealedSets(root.toAbsolutePath(), Objects.requireNonNull(recipient, "recipient"), identity));
    }

    /** Whether the store is encrypted. */
    public boolean isEncrypted() {
        return sealed.isPresent();
    }

    /**
     * Whether sets can be found and read: always for a plain store, with the identity for an encrypted one.
     * A prover writing into an encrypted store without it cannot tell that a set exists already, and
     * writes another; readers take the newest.
     */
    public boolean canRead() {
        return sealed.map(SealedSets::canRead).orElse(true);
    }

    /** Returns the store's folder. */
    public Path root() {
        return root;
    }

    /**
     * Returns the folder of a proof set of a plain store, whether or not it exists.
     *
     * @throws IllegalStateException for an encrypted store, whose folders are not named by hash
     */
    public Path folder(String sha256) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        if (sealed.isPresent()) {
            throw new IllegalStateException("an encrypted store's folders are not named by hash");
        }
        return root.resolve(sha256.toLowerCase(Locale.ROOT));
    }

    /**
     * Returns the folder of an existing, complete proof set. In an encrypted store it holds sealed
     * objects: read them with {@link #files(String)} or {@link #bundle(String)}; without the identity
     * nothing is found.
     */
    public Optional<Path> find(String sha256) {
        if (sealed.isPresent()) {
            if (!Hex.isSha256(sha256)) {
                throw new IllegalArgumentException("not a SHA-256: " + sha256);
            }
            return sealed.get().canRead() ? sealed.get().find(sha256.toLowerCase(Locale.ROOT)) : Optional.empty();
        }
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

    /**
     * The files of a stored set, opened: name to content.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the store is encrypted and locked,
     *     {@link Failure#BAD_DATA} naming the object if one is damaged
     */
    public Optional<Map<String, byte[]>> files(String sha256) {
        Optional<Path> folder = findOrLocked(sha256);
        if (folder.isEmpty()) {
            return Optional.empty();
        }
        if (sealed.isPresent()) {
            return Optional.of(sealed.get().open(folder.get()));
        }
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Stream<Path> s = Files.list(folder.get())) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                if (Files.isRegularFile(p)) {
                    out.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + folder.get() + ": " + e.getMessage(), e);
        }
        return Optional.of(out);
    }

    /**
     * A stored set as a bundle for the verifier: the folder itself for a plain store, its objects opened
     * as they are read for an encrypted one.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the store is encrypted and locked
     */
    public Optional<Bundle> bundle(String sha256, BundleLimits limits) {
        Optional<Path> folder = findOrLocked(sha256);
        if (folder.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(sealed.isPresent() ? sealed.get().bundle(folder.get()) : Bundle.open(folder.get(), limits));
    }

    /**
     * A stored set, to read and add files to.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the store is encrypted and locked
     */
    public Optional<ProofSet> set(String sha256) {
        return findOrLocked(sha256).map(f -> set(f, sha256.toLowerCase(Locale.ROOT)));
    }

    /**
     * The set in a folder, as a prover's result or a stored proof names it: a sealed set for a folder of
     * this encrypted store (whose files a prover of this store wrote read back without the identity; any
     * other set's need it), else the plain folder (this plain store's, or one under {@code prove --out}).
     */
    public ProofSet set(Path folder, String sha256) {
        Path f = folder.toAbsolutePath().normalize();
        String h = sha256.toLowerCase(Locale.ROOT);
        if (sealed.isPresent() && root.equals(f.getParent())) {
            return new SealedSet(sealed.get(), f, h);
        }
        return folderSet(f, h);
    }

    /** The proof set in a plain folder ({@code <h>/}, wherever it is). */
    public static ProofSet folderSet(Path folder, String sha256) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        return new FolderSet(folder, sha256.toLowerCase(Locale.ROOT));
    }

    /**
     * How the home's queues keep their items when the store is encrypted: sealed to its recipient like its
     * sets, opened with its identity; none for a plain store.
     */
    public Optional<QueueFolder.Sealing> queueSealing() {
        return sealed.map(SealedSets::queueSealing);
    }

    private Optional<Path> findOrLocked(String sha256) {
        if (!canRead()) {
            throw new ProofModeException(Failure.KEY_LOCKED,
                    "the proof store is encrypted: reading it needs its identity (unlock it with the device key's passphrase)");
        }
        return find(sha256);
    }

    /**
     * How many sets the store holds, counted without opening any: for an encrypted store, its set folders
     * (several of one hash count each).
     */
    public int folderCount() {
        if (sealed.isEmpty()) {
            return list().size();
        }
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(root)) {
            return (int) s.filter(p -> SealedSets.isSetName(p.getFileName().toString())).count();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot list " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * Lists the hashes of all proof sets, sorted.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the store is encrypted and locked
     */
    public List<String> list() {
        if (sealed.isPresent()) {
            return Files.isDirectory(root) ? sealed.get().list() : List.of();
        }
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
        return stage(sha256, files, replace).await();
    }

    /**
     * A proof set written but not yet stored: {@link #await()} stores it. Sets awaited by several threads
     * at the same time are flushed together.
     */
    public interface Staged {
        /**
         * Returns once the set is durable in place (or an existing one was kept); never before.
         *
         * @throws ProofModeException as {@link ProofStore#write}
         */
        Written await();
    }

    /**
     * Writes a proof set's files into a temporary folder without waiting for the disk: the set is stored,
     * with those of other writers, once it is {@linkplain Staged#await() awaited}, which the caller must do.
     *
     * @param sha256 the media hash naming the set
     * @param files file name to content
     * @param replace whether an existing set is replaced
     * @throws ProofModeException as {@link #write}
     */
    public Staged stage(String sha256, Map<String, byte[]> files, boolean replace) {
        if (sealed.isPresent()) {
            Written w = writeSealed(sha256.toLowerCase(Locale.ROOT), files, replace);
            return () -> w;
        }
        Path target = folder(sha256);
        if (!replace && Files.isDirectory(target)) {
            Written kept = new Written(target, true);
            return () -> kept;
        }
        Path tmp = root.resolve(AtomicFiles.TEMP_PREFIX + sha256 + "-" + UUID.randomUUID());
        GroupCommit.Ticket ticket;
        try {
            AtomicFiles.privateDirectories(tmp);
            List<FileChannel> open = AtomicFiles.writeNew(tmp, files);
            ticket = commits.enqueue(root, tmp, open, () -> place(tmp, target, sha256, replace));
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp);
            if (e instanceof IOException io) {
                throw cannotWrite(target, io);
            }
            throw (RuntimeException) e;
        }
        return () -> {
            try {
                return commits.await(ticket).written();
            } catch (IOException e) {
                throw cannotWrite(target, e);
            } finally {
                deleteQuietly(tmp);
            }
        };
    }

    private static ProofModeException cannotWrite(Path target, IOException e) {
        return new ProofModeException(Failure.IO, "cannot write proof to " + target + " (" + IoErrors.describe(e) + ")", e);
    }

    private static void deleteQuietly(Path tmp) {
        try {
            AtomicFiles.deleteTree(tmp);
        } catch (IOException e) {
            // left for recover()
        }
    }

    /**
     * Renames a flushed set's temporary folder to its hash, moving an existing set aside first when it is
     * replaced (removed by the commit once the new one is durable; put back by {@link #recover()} after a
     * crash in between).
     */
    private GroupCommit.Placed place(Path tmp, Path target, String sha256, boolean replace) throws IOException {
        if (!Files.isDirectory(target)) {
            boolean ours = moveUnlessTaken(tmp, target);
            return new GroupCommit.Placed(new Written(target, !ours), Optional.empty());
        }
        if (!replace) {
            return new GroupCommit.Placed(new Written(target, true), Optional.empty());
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
            return new GroupCommit.Placed(new Written(target, true), Optional.empty());
        }
        return new GroupCommit.Placed(new Written(target, false), Optional.of(old));
    }

    private Written writeSealed(String sha256, Map<String, byte[]> files, boolean replace) {
        SealedSets s = sealed.orElseThrow();
        if (!replace && s.canRead()) {
            Optional<Path> existing = s.find(sha256);
            if (existing.isPresent()) {
                return new Written(existing.get(), true);
            }
        }
        try {
            AtomicFiles.privateDirectories(root);
            if (!Files.exists(root.resolve(ENCRYPTED_MARKER))) {
                AtomicFiles.write(root.resolve(ENCRYPTED_MARKER), new byte[0], true, true);
            }
            Path target = s.write(sha256, files);
            if (replace && s.canRead()) {
                // The new set is whole before an older one goes; a crash in between leaves both, and readers take the newest.
                for (Path old : s.others(sha256, target)) {
                    s.remove(old);
                }
            }
            return new Written(target, false);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write a proof into " + root + " (" + IoErrors.describe(e) + ")", e);
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
