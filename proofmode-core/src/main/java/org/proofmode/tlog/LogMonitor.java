// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;

/**
 * Watches a transparency log from outside, trusting only its key: fetches its signed checkpoint, rebuilds
 * the tree from its tiles ({@code tlog-tiles}), and checks that the tree is the one signed, that it grew
 * from the checkpoint seen before (a consistency proof), and that the entries added since hash to the
 * tree's leaves. A log that shrank, forked or rewrote an entry is caught by the first monitor that saw an
 * earlier checkpoint.
 */
public final class LogMonitor {
    /** The largest tile: 256 hashes. */
    private static final int TILE_BYTES = Tiles.WIDTH * Merkle.HASH_BYTES;
    /** The largest entry bundle: 256 entries of at most 64 KiB. */
    private static final int BUNDLE_BYTES = Tiles.WIDTH * (2 + Tiles.MAX_ENTRY_BYTES);

    /** What a check found. */
    public enum Outcome {
        /** No checkpoint was seen before; the current one is consistent with its tiles and entries. */
        FIRST,
        /** The same checkpoint as seen before. */
        SAME,
        /** The log grew, consistently with the checkpoint seen before. */
        GREW,
        /** The log has fewer entries than the checkpoint seen before. */
        SHRANK,
        /** The log is not an extension of the checkpoint seen before: history was rewritten. */
        FORK,
        /** The checkpoint is not signed by the log key, or the tiles or entries do not match it. */
        INVALID
    }

    /**
     * The result of a check.
     *
     * @param outcome what was found
     * @param detail why, in one line
     * @param current the checkpoint now served, when it is signed by the key
     * @param currentNote the signed note now served, as it came
     * @param previous the checkpoint seen before, if any
     */
    public record Result(Outcome outcome, String detail, Optional<Checkpoint> current, byte[] currentNote, Optional<Checkpoint> previous) {
        /** Validates and copies the fields. */
        public Result {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(detail, "detail");
            currentNote = currentNote.clone();
        }

        @Override
        public byte[] currentNote() {
            return currentNote.clone();
        }

        /** Whether the log behaved: first seen, unchanged or grown consistently. */
        public boolean ok() {
            return outcome == Outcome.FIRST || outcome == Outcome.SAME || outcome == Outcome.GREW;
        }
    }

    private final Http http;
    private final URI base;
    private final NoteKey key;

    /**
     * A monitor of one log.
     *
     * @param base the server's base URL; the log is read under {@code <base>/log/}
     * @param key the log's key, named by its origin
     */
    public LogMonitor(Http http, URI base, NoteKey key) {
        this.http = Objects.requireNonNull(http, "http");
        String b = base.toString();
        this.base = URI.create(b.endsWith("/") ? b : b + "/");
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * Checks the log now against the checkpoint seen before.
     *
     * @param previousNote the signed checkpoint seen before, as it came; empty the first time
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if the log cannot be read,
     *     {@link Failure#BAD_DATA} if the previous checkpoint kept is not one of this log's
     */
    public Result check(Optional<byte[]> previousNote) {
        Optional<Checkpoint> previous = previousNote.map(n -> open(n).orElseThrow(() -> new ProofModeException(Failure.BAD_DATA,
                "the checkpoint seen before is not signed by " + key.name())));
        byte[] note = fetch("checkpoint", SignedNote.MAX_BYTES);
        Optional<Checkpoint> opened = open(note);
        if (opened.isEmpty()) {
            return new Result(Outcome.INVALID, "the checkpoint served is not signed by the log key " + key.verifierKey(),
                    Optional.empty(), note, previous);
        }
        Checkpoint cur = opened.get();
        if (previous.isPresent()) {
            Checkpoint prev = previous.get();
            if (cur.size() < prev.size()) {
                return new Result(Outcome.SHRANK, "the log has " + count(cur.size()) + ", " + (prev.size() - cur.size())
                        + " fewer than the checkpoint seen before", opened, note, previous);
            }
            if (cur.size() == prev.size() && !Arrays.equals(cur.rootHash(), prev.rootHash())) {
                return new Result(Outcome.FORK, "two checkpoints of " + count(cur.size()) + " with different roots",
                        opened, note, previous);
            }
        }
        Merkle.Nodes nodes = Tiles.nodes(cur.size(), t -> fetch(t.path(), TILE_BYTES));
        try {
            if (!Arrays.equals(Merkle.root(cur.size(), nodes), cur.rootHash())) {
                return new Result(Outcome.INVALID, "the log's tiles do not hash to its signed root", opened, note, previous);
            }
            long from = previous.map(Checkpoint::size).orElse(0L);
            if (from > 0 && from < cur.size()) {
                List<byte[]> proof = Merkle.consistencyProof(from, cur.size(), nodes);
                if (!Merkle.verifyConsistency(from, cur.size(), proof, previous.get().rootHash(), cur.rootHash())) {
                    return new Result(Outcome.FORK, "the log of " + count(cur.size()) + " does not extend the checkpoint of "
                            + from + " seen before", opened, note, previous);
                }
            }
            Optional<String> bad = entries(from, cur.size(), nodes);
            if (bad.isPresent()) {
                return new Result(Outcome.INVALID, bad.get(), opened, note, previous);
            }
        } catch (IllegalStateException e) {
            return new Result(Outcome.INVALID, "the log's tiles are malformed: " + e.getMessage(), opened, note, previous);
        }
        if (previous.isEmpty()) {
            return new Result(Outcome.FIRST, count(cur.size()) + ", all matching the signed tree", opened, note, previous);
        }
        if (cur.size() == previous.get().size()) {
            return new Result(Outcome.SAME, count(cur.size()) + ", as before", opened, note, previous);
        }
        return new Result(Outcome.GREW, count(cur.size()) + ", " + (cur.size() - previous.get().size())
                + " new, consistent with the " + previous.get().size() + " seen before", opened, note, previous);
    }

    /** Checks that entries {@code from} (included) to {@code to} hash to the tree's leaves. */
    private Optional<String> entries(long from, long to, Merkle.Nodes nodes) {
        for (long start = from - from % Tiles.WIDTH; start < to; start += Tiles.WIDTH) {
            int width = (int) Math.min(Tiles.WIDTH, to - start);
            Tiles.Tile t = new Tiles.Tile(0, start / Tiles.WIDTH, width);
            List<byte[]> es;
            try {
                es = Tiles.readEntryBundle(fetch(t.entriesPath(), BUNDLE_BYTES), width);
            } catch (NoteFormatException e) {
                return Optional.of(t.entriesPath() + " is malformed: " + e.getMessage());
            }
            for (int k = 0; k < width; k++) {
                long i = start + k;
                if (i >= from && !Arrays.equals(Merkle.leafHash(es.get(k)), nodes.node(0, i))) {
                    return Optional.of("entry " + i + " is not the leaf the signed tree holds: the log's entries were changed");
                }
            }
        }
        return Optional.empty();
    }

    private static String count(long entries) {
        return entries + (entries == 1 ? " entry" : " entries");
    }

    private Optional<Checkpoint> open(byte[] note) {
        try {
            SignedNote.Opened n = SignedNote.open(note, List.of(key));
            Checkpoint c = Checkpoint.parse(n.text());
            return n.trusted() && c.origin().equals(key.name()) ? Optional.of(c) : Optional.empty();
        } catch (NoteFormatException e) {
            return Optional.empty();
        }
    }

    private byte[] fetch(String path, int maxBytes) {
        URI uri = base.resolve("log/" + path);
        Http.Response r = http.get(uri, "*/*", maxBytes);
        if (r.status() != 200) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": HTTP " + r.status());
        }
        return r.body();
    }
}
