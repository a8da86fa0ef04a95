// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A log checkpoint in the C2SP {@code tlog-checkpoint} format: the text of a signed note whose lines are
 * the log's origin (a name unique to the log, conventionally its URL without scheme), the tree size in
 * decimal, the root hash in base64, then optional extension lines.
 *
 * @param origin the log's origin line
 * @param size the number of entries
 * @param rootHash the Merkle root of those entries ({@link Merkle#root})
 * @param extensions further lines, each non-empty
 */
public record Checkpoint(String origin, long size, byte[] rootHash, List<String> extensions) {
    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,18}");

    /** Validates and copies the fields. */
    public Checkpoint {
        if (!line(origin)) {
            throw new IllegalArgumentException("not a checkpoint origin: " + origin);
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative tree size");
        }
        if (rootHash.length != Merkle.HASH_BYTES) {
            throw new IllegalArgumentException("a root hash has 32 bytes");
        }
        rootHash = rootHash.clone();
        extensions = List.copyOf(extensions);
        if (!extensions.stream().allMatch(Checkpoint::line)) {
            throw new IllegalArgumentException("not a checkpoint extension line");
        }
    }

    /** Whether text can be one line of a checkpoint: not empty, no control characters (newline included). */
    private static boolean line(String s) {
        return !s.isEmpty() && s.chars().noneMatch(c -> c < 0x20);
    }

    /** A checkpoint without extension lines. */
    public Checkpoint(String origin, long size, byte[] rootHash) {
        this(origin, size, rootHash, List.of());
    }

    @Override
    public byte[] rootHash() {
        return rootHash.clone();
    }

    /** The note text: origin, size, root hash and extensions, one per line, each ending with a newline. */
    public String text() {
        StringBuilder b = new StringBuilder(origin).append('\n').append(size).append('\n')
                .append(Base64.getEncoder().encodeToString(rootHash)).append('\n');
        extensions.forEach(e -> b.append(e).append('\n'));
        return b.toString();
    }

    /**
     * Reads a checkpoint from a note's text.
     *
     * @throws NoteFormatException if the text is not origin, decimal size and a base64 32-byte hash, each on
     *     a line, with non-empty extension lines after them
     */
    public static Checkpoint parse(String text) throws NoteFormatException {
        if (!text.endsWith("\n")) {
            throw new NoteFormatException("checkpoint text does not end with a newline");
        }
        List<String> lines = Arrays.asList(text.substring(0, text.length() - 1).split("\n", -1));
        if (lines.size() < 3 || !DECIMAL.matcher(lines.get(1)).matches()) {
            throw new NoteFormatException("not a checkpoint (origin, tree size, root hash)");
        }
        byte[] root;
        try {
            root = Base64.getDecoder().decode(lines.get(2));
        } catch (IllegalArgumentException e) {
            throw new NoteFormatException("checkpoint root hash is not base64", e);
        }
        if (root.length != Merkle.HASH_BYTES) {
            throw new NoteFormatException("checkpoint root hash is not 32 bytes");
        }
        long size;
        try {
            size = Long.parseLong(lines.get(1));
        } catch (NumberFormatException e) {
            throw new NoteFormatException("checkpoint tree size too large", e);
        }
        try {
            return new Checkpoint(lines.get(0), size, root, lines.subList(3, lines.size()));
        } catch (IllegalArgumentException e) {
            throw new NoteFormatException(e.getMessage(), e);
        }
    }
}
