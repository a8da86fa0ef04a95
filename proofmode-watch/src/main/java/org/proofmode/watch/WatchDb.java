// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteJDBCLoader;

/**
 * The watcher's durable state, an SQLite database in write-ahead-log mode ({@code PROOFMODE_HOME/watch.db}):
 * every file seen with its size, time, state and capture context, every proof made, and a few facts
 * about the running watcher. Changes are applied in batches, each one transaction, so a crash leaves the
 * state of the last whole batch. One thread writes; readers (such as {@code status}) may open it at the
 * same time.
 *
 * <p>In a home whose proof store is encrypted the database is <em>sealed</em> ({@link WatchSeal}): files and
 * proofs are keyed by keyed hashes of their path and media hash, and paths, hashes, files' sizes and
 * modification times, capture context, errors and the folders watched are sealed; states, the watcher's own
 * times and counts stay readable, so that {@code status} counts without the key. A plain database met with a key is sealed in place and vacuumed, so that none of
 * its old text is left in the file.
 */
public final class WatchDb implements AutoCloseable {
    /** The file name under the home. */
    public static final String FILE = Home.WATCH_DB.path();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {};
    private static final int SCHEMA = 1;

    /** The meta entry that holds the key's check value in a sealed database. */
    private static final String KEY_CHECK = "keyCheck";
    /** The meta entry that holds the key sealed to the store's recipient. */
    private static final String KEY_COPY = "key";
    /** Meta entries whose values are sealed. */
    private static final List<String> SEALED_META = List.of("folders");

    private final Path file;
    private final Connection db;
    private final Optional<WatchSeal> seal;
    /** Whether the database is sealed (the rows are written and read through {@link #seal}). */
    private boolean sealed;

    private WatchDb(Path file, Connection db, Optional<WatchSeal> seal) {
        this.file = file;
        this.db = db;
        this.seal = seal;
    }

    /**
     * Starts loading the SQLite driver's native library on another thread (it is unpacked from the jar
     * first, which takes a moment on a fresh process), so that {@link #open} finds it ready. Failures are
     * left for {@link #open} to report.
     */
    public static void loadDriverAsync() {
        Thread t = new Thread(() -> {
            try {
                SQLiteJDBCLoader.initialize();
            } catch (Exception | LinkageError e) {
                // open() tries again and says what is wrong
            }
        }, "proofmode-sqlite-load");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Opens the database, creating it and its tables when needed.
     *
     * @param file the database file
     * @throws ProofModeException with {@link Failure#IO} if it cannot be opened or is not ours
     */
    public static WatchDb open(Path file) {
        return open(file, Optional.empty());
    }

    /**
     * Opens the database, creating it and its tables when needed; with a seal, a plain database is sealed
     * first (its rows rewritten sealed, then the file vacuumed), and one sealed with another key (the
     * store's keys were made again) has its rows dropped: they can no longer be read.
     *
     * @param file the database file
     * @param seal the key of a home whose store is encrypted
     * @throws ProofModeException with {@link Failure#IO} if it cannot be opened or is not ours,
     *     {@link Failure#KEY_LOCKED} if it is sealed and no seal is given
     */
    public static WatchDb open(Path file, Optional<WatchSeal> seal) {
        Connection c = null;
        try {
            AtomicFiles.privateDirectories(file.toAbsolutePath().getParent());
            SQLiteConfig cfg = new SQLiteConfig();
            cfg.setJournalMode(SQLiteConfig.JournalMode.WAL);
            cfg.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
            cfg.setBusyTimeout(10_000);
            if (seal.isPresent()) {
                // Deleted rows are overwritten, and temporary tables (VACUUM's) never go to a file.
                cfg.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
                cfg.setTempStore(SQLiteConfig.TempStore.MEMORY);
            }
            c = cfg.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
            WatchDb w = new WatchDb(file, c, seal);
            w.createTables();
            w.sealed = w.rawMeta(KEY_CHECK).isPresent();
            if (seal.isPresent()) {
                w.sealIfNeeded(seal.get());
            } else if (w.sealed) {
                throw new ProofModeException(Failure.KEY_LOCKED, "the watch database " + file
                        + " is sealed (the proof store is encrypted): opening it needs the watch key");
            }
            return w;
        } catch (SQLException | IOException e) {
            closeQuietly(c);
            throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // opening failed already
            }
        }
    }

    /**
     * Seals a plain database with the key (or drops the rows of one sealed with another): in one
     * transaction every row is rewritten sealed; then the write-ahead log is emptied and the file vacuumed,
     * so that no page, free or in the log, keeps the old text.
     */
    private void sealIfNeeded(WatchSeal with) throws SQLException, IOException {
        Optional<String> check = rawMeta(KEY_CHECK);
        if (check.isPresent() && check.get().equals(with.check())) {
            return;
        }
        Batch all = new Batch();
        if (check.isEmpty()) {
            files().values().forEach(all::put);
            proofs("SELECT * FROM proofs", null).forEach(all::proof);
            Map<String, String> meta = meta();
            for (String k : SEALED_META) {
                if (meta.containsKey(k)) {
                    all.meta(k, meta.get(k));
                }
            }
        }
        try {
            db.setAutoCommit(false);
            try (Statement st = db.createStatement(); PreparedStatement del = db.prepareStatement("DELETE FROM meta WHERE key = ?")) {
                st.executeUpdate("DELETE FROM files");
                st.executeUpdate("DELETE FROM proofs");
                for (String k : SEALED_META) {
                    del.setString(1, k);
                    del.executeUpdate();
                }
            }
            sealed = true;
            write(all, Instant.now().toString());
            try (PreparedStatement me = db.prepareStatement("INSERT OR REPLACE INTO meta VALUES (?,?)")) {
                me.setString(1, KEY_CHECK);
                me.setString(2, with.check());
                me.executeUpdate();
                me.setString(1, KEY_COPY);
                me.setString(2, with.copy());
                me.executeUpdate();
            }
            db.commit();
        } catch (SQLException | IOException | RuntimeException e) {
            sealed = check.isPresent();
            rollback();
            throw e;
        } finally {
            autoCommit();
        }
        try (Statement st = db.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            st.executeUpdate("VACUUM");
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    /** Whether the database is sealed (its store is encrypted). */
    public boolean isSealed() {
        return sealed;
    }

    /** Whether the database is sealed and was opened without its key: only counts and clear facts can be read. */
    public boolean locked() {
        return sealed && seal.isEmpty();
    }

    /**
     * The key sealed to the store's recipient, kept in a sealed database for whoever holds the store's
     * identity ({@link WatchSeal#fromCopy}).
     */
    public Optional<String> keyCopy() {
        return sealed ? rawMeta(KEY_COPY) : Optional.empty();
    }

    private Optional<String> rawMeta(String key) {
        return query("SELECT value FROM meta WHERE key = ?", key, r -> r.next() ? Optional.of(r.getString(1)) : Optional.empty());
    }

    /**
     * Opens an existing database only to read it: nothing is written, so it works on a full disk and
     * beside a running watcher.
     *
     * @param file the database file
     * @throws ProofModeException with {@link Failure#IO} if it cannot be opened or is not ours
     */
    public static WatchDb openToRead(Path file) {
        return openToRead(file, Optional.empty());
    }

    /**
     * As {@link #openToRead(Path)}, with the key of a sealed database, if at hand: without it a sealed
     * database is {@link #locked()}.
     */
    public static WatchDb openToRead(Path file, Optional<WatchSeal> seal) {
        try {
            return openToRead(file, "jdbc:sqlite:" + file.toAbsolutePath(), seal);
        } catch (SQLException e) {
            if (Files.isWritable(file.toAbsolutePath().getParent())) {
                throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + e.getMessage(), e);
            }
            // A home on a read-only file system (a mounted backup, a seized disk): nothing can write to it, so
            // SQLite may read it as immutable, without the shared-memory file it would otherwise create.
            try {
                return openToRead(file, "jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?immutable=1", seal);
            } catch (SQLException again) {
                throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + again.getMessage(), again);
            }
        }
    }

    private static WatchDb openToRead(Path file, String url, Optional<WatchSeal> seal) throws SQLException {
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setReadOnly(true);
        cfg.setBusyTimeout(10_000);
        Connection c = cfg.createConnection(url);
        try {
            WatchDb w = new WatchDb(file, c, seal);
            w.checkVersion();
            Optional<String> check = w.rawMeta(KEY_CHECK);
            w.sealed = check.isPresent();
            if (check.isPresent() && seal.isPresent() && !check.get().equals(seal.get().check())) {
                throw new ProofModeException(Failure.BAD_DATA, "the watch database " + file + " is sealed with another key");
            }
            return w;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void checkVersion() throws SQLException {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("PRAGMA user_version")) {
            int v = r.next() ? r.getInt(1) : 0;
            if (v > SCHEMA) {
                throw new SQLException("made by a newer version (schema " + v + ")");
            }
        }
    }

    private void createTables() throws SQLException {
        checkVersion();
        try (Statement s = db.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, "
                    + "mtime INTEGER NOT NULL, state TEXT NOT NULL, sha256 TEXT, detected_at TEXT NOT NULL, "
                    + "detected_by TEXT NOT NULL, snapshot TEXT NOT NULL, attempts INTEGER NOT NULL, "
                    + "next_try INTEGER NOT NULL, last_error TEXT, updated_at TEXT NOT NULL)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS proofs (sha256 TEXT PRIMARY KEY, path TEXT NOT NULL, "
                    + "detected_at TEXT NOT NULL, proved_at TEXT NOT NULL)");
            s.executeUpdate("CREATE INDEX IF NOT EXISTS proofs_by_time ON proofs (proved_at)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            s.executeUpdate("PRAGMA user_version = " + SCHEMA);
        }
    }

    /** Changes to apply together. */
    public static final class Batch {
        private final Map<String, Optional<TrackedFile>> files = new LinkedHashMap<>();
        private final List<ProofEntry> proofs = new ArrayList<>();
        private final Map<String, String> meta = new LinkedHashMap<>();

        /** Records a file's new state. */
        public void put(TrackedFile f) {
            files.remove(f.path());
            files.put(f.path(), Optional.of(f));
        }

        /** Forgets a file (it is gone; its proofs stay). */
        public void remove(String path) {
            files.remove(path);
            files.put(path, Optional.empty());
        }

        /** Records a proof; a proof already recorded for the same content is kept. */
        public void proof(ProofEntry p) {
            proofs.add(p);
        }

        /** Records a fact about the watcher. */
        public void meta(String key, String value) {
            meta.put(key, value);
        }

        /** Tells whether there is nothing to apply. */
        public boolean isEmpty() {
            return files.isEmpty() && proofs.isEmpty() && meta.isEmpty();
        }

        void clear() {
            files.clear();
            proofs.clear();
            meta.clear();
        }
    }

    /**
     * Applies a batch in one transaction, then empties it. On failure nothing is applied and the batch is
     * kept, so it can be tried again.
     *
     * @throws ProofModeException with {@link Failure#IO} if the database refuses (a full disk)
     */
    public synchronized void apply(Batch b) {
        if (b.isEmpty()) {
            return;
        }
        try {
            db.setAutoCommit(false);
            write(b, Instant.now().toString());
            db.commit();
            b.clear();
        } catch (SQLException | IOException e) {
            rollback();
            throw new ProofModeException(Failure.IO, "cannot update the watch database " + file + ": " + e.getMessage(), e);
        } finally {
            autoCommit();
        }
    }

    /** Writes a batch's rows, inside the caller's transaction: in a sealed database, named and sealed. */
    private void write(Batch b, String now) throws SQLException, IOException {
        try (PreparedStatement up = db.prepareStatement("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
             PreparedStatement del = db.prepareStatement("DELETE FROM files WHERE path = ?");
             PreparedStatement pr = db.prepareStatement("INSERT OR IGNORE INTO proofs VALUES (?,?,?,?)");
             PreparedStatement me = db.prepareStatement("INSERT OR REPLACE INTO meta VALUES (?,?)")) {
            for (Map.Entry<String, Optional<TrackedFile>> e : b.files.entrySet()) {
                String row = sealed ? seal().name("path", e.getKey()) : e.getKey();
                if (e.getValue().isEmpty()) {
                    del.setString(1, row);
                    del.executeUpdate();
                    continue;
                }
                TrackedFile f = e.getValue().get();
                String snapshot = JSON.writeValueAsString(f.snapshot());
                up.setString(1, row);
                // sealed, a file's size and time are kept inside its sealed value: both can pick out a known photo
                up.setLong(2, sealed ? 0 : f.size());
                up.setLong(3, sealed ? 0 : f.mtime());
                up.setString(4, f.state().name());
                up.setString(5, f.sha256().map(h -> sealed ? seal().seal("sha256", row, h) : h).orElse(null));
                up.setString(6, f.detectedAt().toString());
                up.setString(7, f.detectedBy());
                up.setString(8, sealed ? seal().seal("file", row, JSON.writeValueAsString(Map.of("path", f.path(), "snapshot", snapshot,
                        "size", Long.toString(f.size()), "mtime", Long.toString(f.mtime()))))
                        : snapshot);
                up.setInt(9, f.attempts());
                up.setLong(10, f.nextTry());
                up.setString(11, f.lastError().map(m -> sealed ? seal().seal("error", row, m) : m).orElse(null));
                up.setString(12, now);
                up.executeUpdate();
            }
            for (ProofEntry p : b.proofs) {
                String row = sealed ? seal().name("sha256", p.sha256()) : p.sha256();
                pr.setString(1, row);
                pr.setString(2, sealed ? seal().seal("proof", row, JSON.writeValueAsString(Map.of("sha256", p.sha256(), "path", p.path())))
                        : p.path());
                pr.setString(3, p.detectedAt().toString());
                pr.setString(4, p.provedAt().toString());
                pr.executeUpdate();
            }
            for (Map.Entry<String, String> e : b.meta.entrySet()) {
                me.setString(1, e.getKey());
                me.setString(2, sealed && SEALED_META.contains(e.getKey()) ? seal().seal("meta", e.getKey(), e.getValue()) : e.getValue());
                me.executeUpdate();
            }
        }
    }

    private WatchSeal seal() {
        return seal.orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED, "the watch database " + file
                + " is sealed (the proof store is encrypted): reading its paths needs the watch key or the store's identity"));
    }

    /** Every file the watcher knows, by path. */
    public synchronized Map<String, TrackedFile> files() {
        return query("SELECT * FROM files", null, r -> {
            Map<String, TrackedFile> out = new LinkedHashMap<>();
            while (r.next()) {
                TrackedFile f = file(r);
                out.put(f.path(), f);
            }
            return out;
        });
    }

    /** The proof recorded for a content, if the watcher made one. */
    public synchronized Optional<ProofEntry> proof(String sha256) {
        List<ProofEntry> found = proofs("SELECT * FROM proofs WHERE sha256 = ?", sealed ? seal().name("sha256", sha256) : sha256);
        return found.stream().findFirst();
    }

    /** The most recent proofs, newest first. */
    public synchronized List<ProofEntry> lastProofs(int n) {
        return proofs("SELECT * FROM proofs ORDER BY proved_at DESC, rowid DESC LIMIT " + Math.max(0, n), null);
    }

    private List<ProofEntry> proofs(String sql, String arg) {
        return query(sql, arg, r -> {
            List<ProofEntry> out = new ArrayList<>();
            while (r.next()) {
                out.add(proof(r));
            }
            return out;
        });
    }

    /** Files whose last attempt failed, most recent first. */
    public synchronized List<TrackedFile> problems(int n) {
        return query("SELECT * FROM files WHERE last_error IS NOT NULL ORDER BY updated_at DESC LIMIT " + Math.max(0, n), null, r -> {
            List<TrackedFile> out = new ArrayList<>();
            while (r.next()) {
                out.add(file(r));
            }
            return out;
        });
    }

    /** How many files are in each state. */
    public synchronized Map<FileState, Long> counts() {
        return query("SELECT state, COUNT(*) FROM files GROUP BY state", null, r -> {
            Map<FileState, Long> out = new EnumMap<>(FileState.class);
            for (FileState s : FileState.values()) {
                out.put(s, 0L);
            }
            while (r.next()) {
                out.put(FileState.valueOf(r.getString(1)), r.getLong(2));
            }
            return out;
        });
    }

    /**
     * The facts recorded about the watcher; in a {@linkplain #locked() locked} database, only those that are
     * not sealed (times and the process, not the folders).
     */
    public synchronized Map<String, String> meta() {
        return query("SELECT key, value FROM meta", null, r -> {
            Map<String, String> out = new LinkedHashMap<>();
            while (r.next()) {
                String k = r.getString(1);
                if (k.equals(KEY_CHECK) || k.equals(KEY_COPY)) {
                    continue;
                }
                if (sealed && SEALED_META.contains(k)) {
                    if (seal.isPresent()) {
                        out.put(k, seal.get().open("meta", k, r.getString(2)));
                    }
                } else {
                    out.put(k, r.getString(2));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized void close() {
        try {
            db.close();
        } catch (SQLException e) {
            throw new ProofModeException(Failure.IO, "cannot close the watch database " + file + ": " + e.getMessage(), e);
        }
    }

    private interface Rows<T> {
        T read(ResultSet r) throws SQLException, IOException;
    }

    private <T> T query(String sql, String arg, Rows<T> rows) {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            if (arg != null) {
                s.setString(1, arg);
            }
            try (ResultSet r = s.executeQuery()) {
                return rows.read(r);
            }
        } catch (SQLException | IOException | IllegalArgumentException e) {
            throw new ProofModeException(Failure.IO, "cannot read the watch database " + file + ": " + e.getMessage(), e);
        }
    }

    private TrackedFile file(ResultSet r) throws SQLException, IOException {
        String row = r.getString("path");
        String path = row;
        String snapshot = r.getString("snapshot");
        long size = r.getLong("size");
        long mtime = r.getLong("mtime");
        Optional<String> sha256 = Optional.ofNullable(r.getString("sha256"));
        Optional<String> error = Optional.ofNullable(r.getString("last_error"));
        if (sealed) {
            Map<String, String> f = JSON.readValue(seal().open("file", row, snapshot), MAP);
            path = f.get("path");
            snapshot = f.get("snapshot");
            try {
                size = f.containsKey("size") ? Long.parseLong(f.get("size")) : size;
                mtime = f.containsKey("mtime") ? Long.parseLong(f.get("mtime")) : mtime;
            } catch (NumberFormatException e) {
                throw new IOException("a sealed row's size or time is not a number", e);
            }
            sha256 = sha256.map(h -> seal().open("sha256", row, h));
            error = error.map(m -> seal().open("error", row, m));
            if (path == null || snapshot == null || !row.equals(seal().name("path", path))) {
                throw new IOException("a sealed row does not match its name");
            }
        }
        return new TrackedFile(path, size, mtime, FileState.valueOf(r.getString("state")),
                sha256, Instant.parse(r.getString("detected_at")), r.getString("detected_by"),
                JSON.readValue(snapshot, MAP), r.getInt("attempts"), r.getLong("next_try"), error);
    }

    private ProofEntry proof(ResultSet r) throws SQLException, IOException {
        String sha256 = r.getString("sha256");
        String path = r.getString("path");
        if (sealed) {
            Map<String, String> p = JSON.readValue(seal().open("proof", sha256, path), MAP);
            if (p.get("sha256") == null || p.get("path") == null || !sha256.equals(seal().name("sha256", p.get("sha256")))) {
                throw new IOException("a sealed row does not match its name");
            }
            sha256 = p.get("sha256");
            path = p.get("path");
        }
        return new ProofEntry(sha256, path, Instant.parse(r.getString("detected_at")), Instant.parse(r.getString("proved_at")));
    }

    private void rollback() {
        try {
            db.rollback();
        } catch (SQLException e) {
            // the transaction is gone with the connection's state; nothing was committed
        }
    }

    private void autoCommit() {
        try {
            db.setAutoCommit(true);
        } catch (SQLException e) {
            // next apply() sets it again
        }
    }
}
