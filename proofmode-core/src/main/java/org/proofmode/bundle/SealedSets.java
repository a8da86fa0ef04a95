// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.RecipientStanzaWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.QueueFolder;
import org.proofmode.age.AgeObjects;

/**
 * The encrypted layout of a proof store: each set in a folder with a random name, each of its files an
 * age object sealed to the store's recipient under a name that says only its position
 * ({@code <random>/<n>.age}), and the set's index ({@code index.age}: the media hash and the files'
 * names) sealed with them. Writing needs only the recipient; finding a set by its hash needs the identity,
 * which opens the indexes (they are remembered, so a session opens each once).
 */
final class SealedSets {
    static final String INDEX = "index.age";
    private static final String MAGIC = "proofmode-sealed-set 1";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** How many sets written here are remembered in plain: more than a batch of provers has under way at once. */
    private static final int RECENT = 64;
    /** The lock file additions hold, in the store's folder. */
    static final String LOCK_FILE = ".lock";
    private static final Object ADD_LOCK = new Object();

    private final Path root;
    private final RecipientStanzaWriter recipient;
    private final Optional<RecipientStanzaReader> identity;
    /** Folder name to its index, for the folders opened so far. */
    private final Map<String, Index> opened = new HashMap<>();
    /** The plain files of the sets this instance wrote last, by folder name: read back without the identity. */
    private final Map<String, Map<String, byte[]>> recent = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, byte[]>> eldest) {
            return size() > RECENT;
        }
    };

    SealedSets(Path root, RecipientStanzaWriter recipient, Optional<RecipientStanzaReader> identity) {
        this.root = root;
        this.recipient = recipient;
        this.identity = identity;
    }

    boolean canRead() {
        return identity.isPresent();
    }

    /** What a set's index says: its media hash, when it was written, and its files by object name. */
    record Index(String sha256, Instant written, Map<String, String> objects) {}

    /**
     * Seals a set into a new folder with a random name.
     *
     * @return the folder
     */
    Path write(String sha256, Map<String, byte[]> files) throws IOException {
        Map<String, String> objects = new LinkedHashMap<>();
        Map<String, byte[]> sealed = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String object = objects.size() + ".age";
            objects.put(object, f.getKey());
            sealed.put(object, AgeObjects.seal(f.getValue(), List.of(recipient)));
        }
        Path target = place(null, new Index(sha256, Instant.now(), objects), sealed);
        synchronized (this) {
            recent.put(target.getFileName().toString(), new LinkedHashMap<>(files));
        }
        return target;
    }

    /**
     * Writes a set's folder under a new random name: the objects of {@code from} that the index names and are
     * not in {@code sealed} are linked (or copied) unchanged, the sealed ones written, then the index; all is
     * flushed before the folder is renamed into place, so a reader sees it whole or not at all.
     */
    private Path place(Path from, Index index, Map<String, byte[]> sealed) throws IOException {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        String name = Hex.encode(id);
        Path tmp = root.resolve(AtomicFiles.TEMP_PREFIX + name);
        Path target = root.resolve(name);
        try {
            AtomicFiles.privateDirectories(tmp);
            if (from != null) {
                for (String object : index.objects().keySet()) {
                    if (!sealed.containsKey(object)) {
                        linkOrCopy(from.resolve(object), tmp.resolve(object));
                    }
                }
            }
            StringBuilder text = new StringBuilder(MAGIC).append('\n').append("sha256 ").append(index.sha256()).append('\n')
                    .append("written ").append(index.written()).append('\n');
            index.objects().forEach((object, file) -> text.append(object).append(' ').append(file).append('\n'));
            Map<String, byte[]> fresh = new LinkedHashMap<>(sealed);
            fresh.put(INDEX, AgeObjects.seal(text.toString().getBytes(StandardCharsets.UTF_8), List.of(recipient)));
            AtomicFiles.writeNewDurably(tmp, fresh);
            AtomicFiles.moveAtomic(tmp, target, false);
            AtomicFiles.fsyncDirectory(root);
            synchronized (this) {
                opened.put(name, index);
            }
            return target;
        } finally {
            AtomicFiles.deleteTree(tmp);
        }
    }

    /** Objects never change once written, so a grown set shares them with the one it replaces. */
    private static void linkOrCopy(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (UnsupportedOperationException | IOException e) {
            if (e instanceof NoSuchFileException n) {
                throw n;
            }
            Files.copy(from, to);
            try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }

    /**
     * Adds a file to a set: the set is written anew under another random name with the file added (or
     * replaced) and its index updated, then the folder it replaces is removed. A crash in between leaves
     * both whole, and readers take the newest. Works without the identity for a set this instance wrote
     * (its index is known); other sets need it. Additions in this store are made one at a time, across
     * processes too (a lock file in the store's folder).
     *
     * @param folder the set's folder as last known
     * @return the set's folder now, or empty if the file was there and {@code replace} is false
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the set is gone, {@link Failure#KEY_LOCKED}
     *     if its index cannot be read
     */
    Optional<Path> add(Path folder, String sha256, String file, byte[] content, boolean replace) throws IOException {
        byte[] object = AgeObjects.seal(content, List.of(recipient));
        synchronized (ADD_LOCK) {
            AtomicFiles.privateDirectories(root);
            try (FileChannel ch = FileChannel.open(root.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = ch.lock();
                try {
                    return addLocked(folder, sha256, file, content, object, replace);
                } finally {
                    lock.release();
                }
            }
        }
    }

    private Optional<Path> addLocked(Path folder, String sha256, String file, byte[] content, byte[] object, boolean replace)
            throws IOException {
        Path current = current(folder, sha256).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                folder + ": the proof set is no longer in the store"));
        Index old = index(current);
        Optional<String> had = old.objects().entrySet().stream().filter(e -> e.getValue().equals(file)).map(Map.Entry::getKey).findFirst();
        if (had.isPresent() && !replace) {
            return Optional.empty();
        }
        Map<String, String> objects = new LinkedHashMap<>(old.objects());
        had.ifPresent(objects::remove);
        int next = 0;
        for (String o : old.objects().keySet()) {
            next = Math.max(next, Integer.parseInt(o.substring(0, o.indexOf('.'))) + 1);
        }
        String fresh = next + ".age";
        objects.put(fresh, file);
        Instant now = Instant.now();
        Instant written = now.isAfter(old.written()) ? now : old.written().plusNanos(1000);
        Path target = place(current, new Index(sha256, written, objects), Map.of(fresh, object));
        synchronized (this) {
            Map<String, byte[]> plain = recent.remove(current.getFileName().toString());
            if (plain != null) {
                plain.put(file, content.clone());
                recent.put(target.getFileName().toString(), plain);
            }
            opened.remove(current.getFileName().toString());
        }
        remove(current);
        if (canRead()) {
            for (Path stale : olderThan(sha256, written)) {
                remove(stale); // left by an addition or a replacement a crash cut short
            }
        }
        AtomicFiles.fsyncDirectory(root);
        return Optional.of(target);
    }

    /**
     * Removes a set's folder: first renamed out of readers' sight in one step (a crash during the removal
     * then leaves a hidden temporary folder, which {@link ProofStore#recover()} clears, never a set with
     * objects missing), then deleted.
     */
    void remove(Path folder) throws IOException {
        Path gone = root.resolve(AtomicFiles.TEMP_PREFIX + folder.getFileName() + "-gone");
        try {
            AtomicFiles.moveAtomic(folder, gone, false);
        } catch (NoSuchFileException e) {
            return; // removed by another
        }
        synchronized (this) {
            opened.remove(folder.getFileName().toString());
        }
        AtomicFiles.deleteTree(gone);
    }

    /**
     * The folder a set known at {@code folder} is in now: that one while it exists, else (it was grown or
     * replaced since) the newest of its hash, which needs the identity.
     */
    Optional<Path> current(Path folder, String sha256) {
        if (Files.isDirectory(folder)) {
            return Optional.of(folder);
        }
        return canRead() ? find(sha256) : Optional.empty();
    }

    /**
     * A file of a set: from memory for a set this instance wrote recently (so it is read back without the
     * identity, as a prover's timestamps are), else opened.
     */
    Optional<byte[]> read(Path folder, String file) {
        synchronized (this) {
            Map<String, byte[]> plain = recent.get(folder.getFileName().toString());
            if (plain != null) {
                return Optional.ofNullable(plain.get(file)).map(byte[]::clone);
            }
        }
        return index(folder).objects().entrySet().stream().filter(e -> e.getValue().equals(file)).findFirst()
                .map(e -> openObject(folder.resolve(e.getKey())));
    }

    /** Whether a set holds a file (its index is known for a set this instance wrote, else opened). */
    boolean has(Path folder, String file) {
        return index(folder).objects().containsValue(file);
    }

    /** A queue's items sealed like the sets: to the recipient, opened with the identity. */
    QueueFolder.Sealing queueSealing() {
        return new QueueFolder.Sealing() {
            @Override
            public byte[] seal(byte[] plain) {
                return AgeObjects.seal(plain, List.of(recipient));
            }

            @Override
            public boolean canOpen() {
                return canRead();
            }

            @Override
            public byte[] open(byte[] sealed, String what) {
                return AgeObjects.open(new ByteArrayInputStream(sealed), requireIdentity(), what);
            }
        };
    }

    /** The newest complete set of a hash, or none; requires the identity. */
    synchronized Optional<Path> find(String sha256) {
        Optional<Map.Entry<String, Index>> best = Optional.empty();
        for (Map.Entry<String, Index> e : indexes().entrySet()) {
            if (e.getValue().sha256().equals(sha256)
                    && (best.isEmpty() || e.getValue().written().isAfter(best.get().getValue().written()))) {
                best = Optional.of(e);
            }
        }
        return best.map(e -> root.resolve(e.getKey()));
    }

    /** Every other set of the hash than the given one (older copies, to be removed after a replace). */
    synchronized List<Path> others(String sha256, Path keep) {
        List<Path> out = new ArrayList<>();
        indexes().forEach((name, index) -> {
            if (index.sha256().equals(sha256) && !root.resolve(name).equals(keep)) {
                out.add(root.resolve(name));
            }
        });
        return out;
    }

    /** The sets of the hash written before a time. */
    private synchronized List<Path> olderThan(String sha256, Instant time) {
        List<Path> out = new ArrayList<>();
        indexes().forEach((name, index) -> {
            if (index.sha256().equals(sha256) && index.written().isBefore(time)) {
                out.add(root.resolve(name));
            }
        });
        return out;
    }

    /** The sorted hashes of every set. */
    synchronized List<String> list() {
        TreeSet<String> out = new TreeSet<>();
        indexes().values().forEach(i -> out.add(i.sha256()));
        return new ArrayList<>(out);
    }

    /**
     * Opens every file of a set.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} naming the object if one is damaged
     */
    Map<String, byte[]> open(Path folder) {
        Index index = index(folder);
        Map<String, byte[]> out = new LinkedHashMap<>();
        index.objects().forEach((object, file) -> out.put(file, openObject(folder.resolve(object))));
        return out;
    }

    /** The set's files as a bundle, opened one at a time as the verifier reads them. */
    Bundle bundle(Path folder) {
        Index index = index(folder);
        List<BundleEntry> entries = new ArrayList<>();
        index.objects().forEach((object, file) -> entries.add(new BundleEntry() {
            @Override
            public String name() {
                return file;
            }

            @Override
            public long size() {
                return -1;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(openObject(folder.resolve(object)));
            }
        }));
        return Bundle.of(folder.toString(), entries);
    }

    private byte[] openObject(Path object) {
        RecipientStanzaReader id = requireIdentity();
        try (InputStream in = Files.newInputStream(object)) {
            return AgeObjects.open(in, id, object.toString());
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.BAD_DATA, object + ": missing from its proof set", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, object + ": cannot read: " + e.getMessage(), e);
        }
    }

    private synchronized Index index(Path folder) {
        String name = folder.getFileName().toString();
        Index i = opened.get(name);
        if (i == null) {
            i = parse(folder, openObject(folder.resolve(INDEX)));
            opened.put(name, i);
        }
        return i;
    }

    /** Opens the indexes of folders not opened yet; a damaged one is skipped here and reported when its set is read. */
    private Map<String, Index> indexes() {
        requireIdentity();
        if (Files.isDirectory(root)) {
            try (Stream<Path> s = Files.list(root)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String name = p.getFileName().toString();
                    if (opened.containsKey(name) || !isSetName(name) || !Files.isRegularFile(p.resolve(INDEX))) {
                        continue;
                    }
                    try {
                        opened.put(name, parse(p, openObject(p.resolve(INDEX))));
                    } catch (ProofModeException e) {
                        if (e.failure() != Failure.BAD_DATA) {
                            throw e;
                        }
                    }
                }
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot list " + root + ": " + e.getMessage(), e);
            }
        }
        opened.keySet().removeIf(name -> !Files.isDirectory(root.resolve(name)));
        return opened;
    }

    static boolean isSetName(String name) {
        return name.length() == 32 && name.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    private RecipientStanzaReader requireIdentity() {
        return identity.orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED,
                "the proof store is encrypted: reading it needs its identity (unlock it with the device key's passphrase)"));
    }

    private static Index parse(Path folder, byte[] content) {
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 3 || !lines[0].equals(MAGIC) || !lines[1].startsWith("sha256 ") || !lines[2].startsWith("written ")) {
            throw new ProofModeException(Failure.BAD_DATA, folder.resolve(INDEX) + ": not a proof set's index");
        }
        String h = lines[1].substring(7);
        if (!Hex.isSha256(h)) {
            throw new ProofModeException(Failure.BAD_DATA, folder.resolve(INDEX) + ": not a proof set's index");
        }
        Instant written;
        try {
            written = Instant.parse(lines[2].substring(8));
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, folder.resolve(INDEX) + ": not a proof set's index", e);
        }
        Map<String, String> objects = new LinkedHashMap<>();
        for (int i = 3; i < lines.length; i++) {
            int sp = lines[i].indexOf(' ');
            String object = sp < 0 ? "" : lines[i].substring(0, sp);
            String file = sp < 0 ? "" : lines[i].substring(sp + 1);
            if (!object.matches("[0-9]{1,4}\\.age") || file.isEmpty() || file.contains("/") || file.startsWith(".")) {
                throw new ProofModeException(Failure.BAD_DATA, folder.resolve(INDEX) + ": not a proof set's index");
            }
            objects.put(object, file);
        }
        return new Index(h.toLowerCase(Locale.ROOT), written, objects);
    }
}
