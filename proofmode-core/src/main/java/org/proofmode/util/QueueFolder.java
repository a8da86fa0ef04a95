// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The storage of an offline queue: one small file per item in a folder of the home, each written
 * atomically and owner-only, so a queue survives a crash or a restart and a reader never sees half an
 * item. The queues themselves (timestamps, publishing) say what an item is, and its key (the proof it is
 * for). In a plain home an item's file is named by its key; in a home whose store is encrypted
 * ({@link Sealing}) each item is an object sealed to the store's recipient under a random name
 * ({@code <32 hex>.age}), so neither names nor contents say what is queued. Queuing then needs no identity:
 * an item queued without it cannot replace the one of its key, and both are kept until a reader with the
 * identity merges them (the queues do, as they list).
 */
public final class QueueFolder {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SEALED_NAME = Pattern.compile("[0-9a-f]{32}\\.age");

    private final Path dir;
    private final String name;
    private final Optional<Sealing> sealing;
    /** Sealed items opened so far by file name (each is written once and never changed), and their keys. */
    private final Map<String, byte[]> opened = new HashMap<>();
    private final Map<String, String> keys = new HashMap<>();

    /** How the items of a queue in a home with an encrypted store are sealed and opened. */
    public interface Sealing {
        /** Seals an item to the store's recipient. */
        byte[] seal(byte[] plain);

        /** Whether items can be opened: the store's identity is at hand. */
        boolean canOpen();

        /**
         * Opens an item.
         *
         * @param what names it in messages
         * @throws ProofModeException with {@link Failure#KEY_LOCKED} without the identity, {@link Failure#BAD_DATA}
         *     if it is damaged
         */
        byte[] open(byte[] sealed, String what);
    }

    /** An item's file and its (opened) content. */
    public record Item(Path file, byte[] content) {}

    /**
     * Opens (without creating) a queue folder of plain items.
     *
     * @param dir the folder
     * @param name the queue's name in messages, such as {@code the timestamp queue}
     */
    public QueueFolder(Path dir, String name) {
        this(dir, name, Optional.empty());
    }

    /**
     * Opens (without creating) a queue folder whose items are sealed, if {@code sealing} is given.
     *
     * @param dir the folder
     * @param name the queue's name in messages, such as {@code the timestamp queue}
     */
    public QueueFolder(Path dir, String name, Optional<Sealing> sealing) {
        this.dir = dir.toAbsolutePath();
        this.name = Objects.requireNonNull(name, "name");
        this.sealing = Objects.requireNonNull(sealing, "sealing");
    }

    /** Whether items are sealed. */
    public boolean sealed() {
        return sealing.isPresent();
    }

    /** Whether items can be read: always when plain, with the identity when sealed. */
    public boolean canRead() {
        return sealing.map(Sealing::canOpen).orElse(true);
    }

    /** Whether a file name is one a sealed item has. */
    public static boolean isSealedName(String fileName) {
        return SEALED_NAME.matcher(fileName).matches();
    }

    /**
     * How many items wait, counted without opening any: files named as plain items (by the filter) or as
     * sealed ones. Sealed items queued without the identity may count a proof twice until they are merged.
     */
    public int count(Predicate<String> plainName) {
        return files(n -> plainName.test(n) || isSealedName(n)).size();
    }

    /**
     * Every item, sorted by file name: plain ones whose names pass the filter, or every sealed one, opened.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the items are sealed and the identity is
     *     not at hand, {@link Failure#IO} if one cannot be read, {@link Failure#BAD_DATA} if a sealed one is damaged
     */
    public List<Item> items(Predicate<String> plainName) {
        List<Item> out = new ArrayList<>();
        if (sealing.isEmpty()) {
            for (Path p : files(plainName)) {
                out.add(new Item(p, readFile(p)));
            }
            return out;
        }
        for (Path p : files(QueueFolder::isSealedName)) {
            byte[] content;
            synchronized (this) {
                content = opened.get(p.getFileName().toString());
            }
            if (content == null) {
                content = sealing.get().open(readFile(p), p.toString());
                synchronized (this) {
                    opened.put(p.getFileName().toString(), content);
                }
            }
            out.add(new Item(p, content));
        }
        return out;
    }

    /**
     * Stores an item under its key. Plain: in the file {@code plainName}, replacing the key's previous one.
     * Sealed: in a new object, after which the key's other objects are removed (when the identity is at
     * hand to tell which they are; else they stay, for a reader to merge).
     *
     * @param keyOf the key of an item's content
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public void put(String plainName, byte[] content, String key, Function<byte[], String> keyOf) {
        if (sealing.isEmpty()) {
            write(plainName, content);
            return;
        }
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        String fileName = Hex.encode(id) + ".age";
        write(fileName, sealing.get().seal(content));
        synchronized (this) {
            opened.put(fileName, content.clone());
            keys.put(fileName, key);
        }
        if (canRead()) {
            for (Path p : withKey(key, keyOf)) {
                if (!p.getFileName().toString().equals(fileName)) {
                    remove(p.getFileName().toString());
                }
            }
        }
    }

    /**
     * Removes the items of a key: the file {@code plainName}, or every sealed object holding that key.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the items are sealed and the identity is
     *     not at hand, {@link Failure#IO} if one cannot be removed
     */
    public void remove(String plainName, String key, Function<byte[], String> keyOf) {
        if (sealing.isEmpty()) {
            remove(plainName);
            return;
        }
        for (Path p : withKey(key, keyOf)) {
            remove(p.getFileName().toString());
        }
    }

    /**
     * The plain content of the key's item, if there is one: the file {@code plainName}, or the sealed objects'
     * (none if the identity is not at hand: an item is then queued anew).
     */
    public List<byte[]> get(String plainName, String key, Function<byte[], String> keyOf) {
        if (sealing.isEmpty()) {
            Path p = dir.resolve(plainName);
            return Files.isRegularFile(p) ? List.of(readFile(p)) : List.of();
        }
        if (!canRead()) {
            return List.of();
        }
        List<byte[]> out = new ArrayList<>();
        for (Item i : items(n -> false)) {
            if (key.equals(keyOf(i, keyOf))) {
                out.add(i.content());
            }
        }
        return out;
    }

    private List<Path> withKey(String key, Function<byte[], String> keyOf) {
        List<Path> out = new ArrayList<>();
        for (Item i : items(n -> false)) {
            if (key.equals(keyOf(i, keyOf))) {
                out.add(i.file());
            }
        }
        return out;
    }

    /** The key of an item; one that cannot be read has none (it is reported when the queue is listed). */
    private String keyOf(Item i, Function<byte[], String> keyOf) {
        String f = i.file().getFileName().toString();
        synchronized (this) {
            String k = keys.get(f);
            if (k != null) {
                return k;
            }
        }
        String k;
        try {
            k = keyOf.apply(i.content());
        } catch (RuntimeException e) {
            return "";
        }
        synchronized (this) {
            keys.put(f, k);
        }
        return k;
    }

    private byte[] readFile(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + p + " in " + name + ": " + e.getMessage(), e);
        }
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
        synchronized (this) {
            opened.remove(fileName);
            keys.remove(fileName);
        }
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
