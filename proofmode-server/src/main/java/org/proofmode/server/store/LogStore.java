// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.tlog.Checkpoint;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.Merkle;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.tlog.Tiles;
import org.proofmode.tlog.TlogProof;
import org.proofmode.util.Hex;

/**
 * The server's transparency log in its database: an append-only Merkle tree (RFC 9162) of {@link LogEntry}
 * records, its signed checkpoints (C2SP {@code tlog-checkpoint}), its tiles (C2SP {@code tlog-tiles}) and
 * receipts ({@code tlog-proof}).
 *
 * <p>Appending is in two steps, so that intake never waits for the log and several instances on one
 * database keep one linear log: an event's entry goes into a queue in the event's own transaction
 * ({@link #enqueue}); a sequencer ({@link #integrate}), holding the single state row (locked with
 * {@code FOR UPDATE} on PostgreSQL, the write lock on SQLite), gives queued entries the next indices,
 * stores the hashes each append completes, signs one checkpoint for the batch and moves the state on, all
 * in one transaction. A tree never changes below its size: tiles and receipts read only what a committed
 * checkpoint covers.
 */
public final class LogStore {
    private final Database db;

    /** Creates the store. */
    public LogStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * The log's current state.
     *
     * @param origin the checkpoints' origin line, which is also the log key's name
     * @param verifierKey the log key, as verifiers know it
     * @param size entries in the tree
     * @param root its root hash
     * @param checkpoint the signed checkpoint of this size
     */
    public record State(String origin, String verifierKey, long size, byte[] root, String checkpoint) {
        /** Validates the fields. */
        public State {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(verifierKey, "verifierKey");
            Objects.requireNonNull(checkpoint, "checkpoint");
            root = root.clone();
        }

        @Override
        public byte[] root() {
            return root.clone();
        }
    }

    /**
     * Makes the log on first use, or checks that the database's log is the one this key signs.
     *
     * @return the state
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the database's log has another origin or
     *     another key (an instance started with the wrong key file)
     */
    public State open(SignedNote.Signer key) {
        String origin = key.key().name();
        byte[] empty = Merkle.root(0, (level, index) -> {
            throw new IllegalStateException("an empty tree has no nodes");
        });
        String first = SignedNote.sign(new Checkpoint(origin, 0, empty).text(), List.of(key));
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_state (id, origin, verifier_key, size, root, "
                    + "checkpoint) VALUES (1, ?, ?, 0, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                ps.setString(1, origin);
                ps.setString(2, key.key().verifierKey());
                ps.setString(3, Hex.encode(empty));
                ps.setString(4, first);
                if (ps.executeUpdate() == 1) {
                    insertCheckpoint(c, 0, first);
                }
            }
            State s = state(c, false);
            if (!s.verifierKey().equals(key.key().verifierKey())) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "this database's transparency log is signed by "
                        + s.verifierKey() + ", not by this server's log key " + key.key().verifierKey()
                        + ": every instance on one database needs the same log key file");
            }
            return s;
        });
    }

    /** The current state. */
    public State state() {
        return db.inTransaction(c -> state(c, false));
    }

    /**
     * Queues an entry, inside the transaction of the event it records: it is in the log once a sequencer
     * has integrated it, or not at all if the event is rolled back.
     */
    static void enqueue(Connection c, LogEntry entry) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_queue (entry, bundle_sha256) VALUES (?, ?)")) {
            ps.setString(1, new String(entry.encoded(), StandardCharsets.UTF_8));
            ps.setString(2, entry.bundle().orElse(null));
            ps.executeUpdate();
        }
    }

    /**
     * Integrates up to {@code max} queued entries, oldest first, and signs a checkpoint for the new tree.
     *
     * @return how many entries were integrated (0: the queue was empty, nothing was signed)
     */
    public int integrate(int max, SignedNote.Signer key) {
        return db.inTransaction(c -> {
            State s = state(c, true);
            List<Long> ids = new ArrayList<>();
            List<String> entries = new ArrayList<>();
            List<String> bundles = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, entry, bundle_sha256 FROM log_queue ORDER BY id LIMIT ?")) {
                ps.setInt(1, max);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                        entries.add(rs.getString(2));
                        bundles.add(rs.getString(3));
                    }
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            CachedNodes nodes = new CachedNodes(c);
            try (PreparedStatement entry = c.prepareStatement("INSERT INTO log_entries (idx, entry, kind, bundle_sha256) VALUES (?, ?, ?, ?)");
                    PreparedStatement hash = c.prepareStatement("INSERT INTO log_hashes (level, idx, hash) VALUES (?, ?, ?)");
                    PreparedStatement done = c.prepareStatement("DELETE FROM log_queue WHERE id = ?")) {
                for (int i = 0; i < ids.size(); i++) {
                    long index = s.size() + i;
                    byte[] bytes = entries.get(i).getBytes(StandardCharsets.UTF_8);
                    entry.setLong(1, index);
                    entry.setString(2, entries.get(i));
                    entry.setString(3, kind(entries.get(i)));
                    entry.setString(4, bundles.get(i));
                    entry.addBatch();
                    List<byte[]> added = Merkle.appended(index, Merkle.leafHash(bytes), nodes);
                    for (int level = 0; level < added.size(); level++) {
                        nodes.put(level, index >> level, added.get(level));
                        hash.setInt(1, level);
                        hash.setLong(2, index >> level);
                        hash.setString(3, Hex.encode(added.get(level)));
                        hash.addBatch();
                    }
                    done.setLong(1, ids.get(i));
                    done.addBatch();
                }
                entry.executeBatch();
                hash.executeBatch();
                done.executeBatch();
            }
            long size = s.size() + ids.size();
            byte[] root = Merkle.root(size, nodes);
            String note = SignedNote.sign(new Checkpoint(s.origin(), size, root).text(), List.of(key));
            try (PreparedStatement ps = c.prepareStatement("UPDATE log_state SET size = ?, root = ?, checkpoint = ? WHERE id = 1")) {
                ps.setLong(1, size);
                ps.setString(2, Hex.encode(root));
                ps.setString(3, note);
                ps.executeUpdate();
            }
            insertCheckpoint(c, size, note);
            return ids.size();
        });
    }

    /** How many entries wait in the queue. */
    public long queued() {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM log_queue");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /**
     * A tile or an entry bundle of the current tree, as the C2SP {@code tlog-tiles} API serves it.
     *
     * @return its bytes, or empty if the tree does not (yet) hold that many nodes or entries there
     */
    public Optional<byte[]> tile(Tiles.Request request) {
        Tiles.Tile t = request.tile();
        if (t.index() >= Long.MAX_VALUE / Tiles.WIDTH) {
            return Optional.empty();
        }
        return db.inTransaction(c -> {
            long atLevel = state(c, false).size() >> (Tiles.HEIGHT * t.level());
            long from = t.index() * Tiles.WIDTH;
            if (from + t.width() > atLevel) {
                return Optional.empty();
            }
            if (request.entries()) {
                List<byte[]> entries = new ArrayList<>(t.width());
                try (PreparedStatement ps = c.prepareStatement("SELECT entry FROM log_entries WHERE idx >= ? AND idx < ? ORDER BY idx")) {
                    ps.setLong(1, from);
                    ps.setLong(2, from + t.width());
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            entries.add(rs.getString(1).getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
                return Optional.of(Tiles.entryBundle(complete(entries, t.width())));
            }
            List<byte[]> hashes = new ArrayList<>(t.width());
            try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM log_hashes WHERE level = ? AND idx >= ? AND idx < ? ORDER BY idx")) {
                ps.setInt(1, Tiles.HEIGHT * t.level());
                ps.setLong(2, from);
                ps.setLong(3, from + t.width());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        hashes.add(Hex.decode(rs.getString(1)));
                    }
                }
            }
            ByteBuffer out = ByteBuffer.allocate(t.width() * Merkle.HASH_BYTES);
            complete(hashes, t.width()).forEach(out::put);
            return Optional.of(out.array());
        });
    }

    /**
     * A receipt for the first entry of a bundle (its intake): the entry, its index and an inclusion proof
     * to the checkpoint served ({@link #served}), as a C2SP {@code tlog-proof} whose {@code extra} data is
     * the entry itself.
     *
     * @param quorum how many witnesses must have cosigned the checkpoint
     * @return the receipt, or empty if the bundle's entry is not under such a checkpoint yet (or there is none)
     */
    public Optional<TlogProof> receipt(String bundleSha256, int quorum) {
        return db.inTransaction(c -> {
            Served s = served(c, quorum);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT idx, entry FROM log_entries WHERE bundle_sha256 = ? ORDER BY idx LIMIT 1")) {
                ps.setString(1, bundleSha256);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || rs.getLong(1) >= s.size()) {
                        return Optional.empty();
                    }
                    long index = rs.getLong(1);
                    byte[] entry = rs.getString(2).getBytes(StandardCharsets.UTF_8);
                    List<byte[]> proof = Merkle.inclusionProof(index, s.size(), new CachedNodes(c));
                    return Optional.of(new TlogProof(Optional.of(entry), index, proof, s.note().getBytes(StandardCharsets.UTF_8)));
                }
            }
        });
    }

    /**
     * The checkpoint to serve: the newest one cosigned by at least {@code quorum} witnesses (the newest
     * one when the quorum is 0).
     *
     * @param size its tree size
     * @param note the signed note, with the cosignatures gathered
     */
    public record Served(long size, String note) {}

    /** What of the log was copied to the bucket last ({@code log_mirror}): size 0 and an empty note before any copy. */
    public Served mirrored() {
        return db.inTransaction(c -> mirrored(c, false));
    }

    private Served mirrored(Connection c, boolean lock) throws SQLException {
        boolean postgres = db.vendor() == Database.Vendor.POSTGRESQL;
        try (PreparedStatement ps = c.prepareStatement("SELECT size, note FROM log_mirror WHERE id = 1" + (lock && postgres ? " FOR UPDATE" : ""));
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("log_mirror has no row");
            }
            return new Served(rs.getLong(1), rs.getString(2));
        }
    }

    /**
     * Copies a checkpoint to the bucket with {@code write} and records it, unless the bucket already holds it
     * or a newer one: {@code write} runs while this instance holds the {@code log_mirror} row, so instances take
     * turns and the copy never goes back to an older tree.
     *
     * @return whether {@code write} ran
     */
    public boolean advanceMirror(Served checkpoint, Consumer<Served> write) {
        return db.inTransaction(c -> {
            Served m = mirrored(c, true);
            if (checkpoint.size() < m.size() || checkpoint.note().equals(m.note())) {
                return false;
            }
            if (db.vendor() != Database.Vendor.POSTGRESQL) {
                // SQLite: take the write lock now, before the copy, as FOR UPDATE does on PostgreSQL.
                try (PreparedStatement ps = c.prepareStatement("UPDATE log_mirror SET size = size WHERE id = 1")) {
                    ps.executeUpdate();
                }
            }
            write.accept(checkpoint);
            try (PreparedStatement ps = c.prepareStatement("UPDATE log_mirror SET size = ?, note = ? WHERE id = 1")) {
                ps.setLong(1, checkpoint.size());
                ps.setString(2, checkpoint.note());
                ps.executeUpdate();
            }
            return true;
        });
    }

    /** The checkpoint to serve with this quorum; see {@link Served}. */
    public Served served(int quorum) {
        return db.inTransaction(c -> served(c, quorum));
    }

    private Served served(Connection c, int quorum) throws SQLException {
        if (quorum == 0) {
            State s = state(c, false);
            return new Served(s.size(), s.checkpoint());
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT size, note FROM log_checkpoints WHERE witnessed >= ? ORDER BY size DESC LIMIT 1")) {
            ps.setInt(1, quorum);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // Before any cosignature: the empty tree's checkpoint, which proves nothing either way.
                    return new Served(0, checkpoint(c, 0).orElseThrow());
                }
                return new Served(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** A consistency proof from the tree of {@code oldSize} entries to the one of {@code newSize} (at most the current size). */
    public List<byte[]> consistencyProof(long oldSize, long newSize) {
        return db.inTransaction(c -> Merkle.consistencyProof(oldSize, newSize, new CachedNodes(c)));
    }

    /**
     * Adds witnesses' cosignature lines to the checkpoint of a size, keeping those of the given witnesses
     * that verify and the ones gathered before, and records how many of the witnesses have cosigned it.
     *
     * @return how many of {@code witnesses} have now cosigned it
     */
    public int addCosignatures(long size, List<String> lines, List<NoteKey> witnesses) {
        return db.inTransaction(c -> {
            state(c, true);
            Optional<String> note = checkpoint(c, size);
            if (note.isEmpty()) {
                return 0;
            }
            StringBuilder merged = new StringBuilder(note.get());
            int before = SignedNote.cosigners(note.get(), witnesses).size();
            for (String line : lines) {
                String l = line.endsWith("\n") ? line : line + "\n";
                if (merged.indexOf(l) < 0 && SignedNote.cosigners(note.get() + l, witnesses).size() > before) {
                    merged.append(l);
                }
            }
            int n = SignedNote.cosigners(merged.toString(), witnesses).size();
            try (PreparedStatement ps = c.prepareStatement("UPDATE log_checkpoints SET note = ?, witnessed = ? WHERE size = ?")) {
                ps.setString(1, merged.toString());
                ps.setInt(2, n);
                ps.setLong(3, size);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE log_state SET checkpoint = ? WHERE size = ?")) {
                ps.setString(1, merged.toString());
                ps.setLong(2, size);
                ps.executeUpdate();
            }
            return n;
        });
    }

    /** The checkpoint this quorum serves, if it has no time-stamp yet. */
    public Optional<Served> unstamped(int quorum) {
        return db.inTransaction(c -> {
            Served s = served(c, quorum);
            return timestamp(c, s.size()).isPresent() ? Optional.<Served>empty() : Optional.of(s);
        });
    }

    /** Keeps an RFC 3161 time-stamp of the checkpoint of a size (the first one kept stays). */
    public void addTimestamp(long size, byte[] timeStampResp) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE log_checkpoints SET timestamp_token = ? WHERE size = ? AND timestamp_token IS NULL")) {
                ps.setString(1, Base64.getEncoder().encodeToString(timeStampResp));
                ps.setLong(2, size);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** The RFC 3161 time-stamp of the checkpoint of a size, if it has one. */
    public Optional<byte[]> timestamp(long size) {
        return db.inTransaction(c -> timestamp(c, size));
    }

    private static Optional<byte[]> timestamp(Connection c, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT timestamp_token FROM log_checkpoints WHERE size = ?")) {
            ps.setLong(1, size);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getString(1) != null ? Optional.of(Base64.getDecoder().decode(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /** Whether a bundle has an entry waiting in the queue. */
    public boolean queued(String bundleSha256) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM log_queue WHERE bundle_sha256 = ? LIMIT 1")) {
                ps.setString(1, bundleSha256);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** The checkpoint signed when the tree had {@code size} entries, if one was. */
    public Optional<String> checkpoint(long size) {
        return db.inTransaction(c -> checkpoint(c, size));
    }

    private static Optional<String> checkpoint(Connection c, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT note FROM log_checkpoints WHERE size = ?")) {
            ps.setLong(1, size);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    private static <T> List<T> complete(List<T> rows, int width) throws SQLException {
        if (rows.size() != width) {
            throw new SQLException("the log's tables miss rows below its size: " + rows.size() + " of " + width);
        }
        return rows;
    }

    private static String kind(String entry) {
        int start = entry.indexOf("\nkind ") + "\nkind ".length();
        return entry.substring(start, entry.indexOf('\n', start));
    }

    private State state(Connection c, boolean lock) throws SQLException {
        boolean postgres = db.vendor() == Database.Vendor.POSTGRESQL;
        try (PreparedStatement ps = c.prepareStatement("SELECT origin, verifier_key, size, root, checkpoint FROM log_state "
                + "WHERE id = 1" + (lock && postgres ? " FOR UPDATE" : ""));
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the transparency log was never opened");
            }
            return new State(rs.getString(1), rs.getString(2), rs.getLong(3), Hex.decode(rs.getString(4)), rs.getString(5));
        }
    }

    private static void insertCheckpoint(Connection c, long size, String note) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_checkpoints (size, note, made_at) VALUES (?, ?, ?)")) {
            ps.setLong(1, size);
            ps.setString(2, note);
            ps.setString(3, DbTime.now());
            ps.executeUpdate();
        }
    }

    /** Stored nodes read from the tables on first use, and the ones a batch adds before it is committed. */
    private static final class CachedNodes implements Merkle.Nodes {
        private final Connection c;
        private final Map<String, byte[]> known = new HashMap<>();

        CachedNodes(Connection c) {
            this.c = c;
        }

        void put(int level, long index, byte[] hash) {
            known.put(level + "/" + index, hash);
        }

        @Override
        public byte[] node(int level, long index) {
            return known.computeIfAbsent(level + "/" + index, k -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM log_hashes WHERE level = ? AND idx = ?")) {
                    ps.setInt(1, level);
                    ps.setLong(2, index);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("the log has no stored hash " + k);
                        }
                        return Hex.decode(rs.getString(1));
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot read the log's hash " + k + ": " + e.getMessage(), e);
                }
            });
        }
    }
}
