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
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteJDBCLoader;

/**
 * The watcher's durable state, an SQLite database in write-ahead-log mode ({@code PROOFMODE_HOME/watch.db}):
 * every file seen with its size, time, state and capture context, every proof made, and a few facts
 * about the running watcher. Changes are applied in batches, each one transaction, so a crash leaves the
 * state of the last whole batch. One thread writes; readers (such as {@code status}) may open it at the
 * same time.
 */
public final class WatchDb implements AutoCloseable {
    /** The file name under the home. */
    public static final String FILE = "watch.db";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {};
    private static final int SCHEMA = 1;

    private final Path file;
    private final Connection db;

    private WatchDb(Path file, Connection db) {
        this.file = file;
        this.db = db;
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
        try {
            AtomicFiles.privateDirectories(file.toAbsolutePath().getParent());
            SQLiteConfig cfg = new SQLiteConfig();
            cfg.setJournalMode(SQLiteConfig.JournalMode.WAL);
            cfg.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
            cfg.setBusyTimeout(10_000);
            Connection c = cfg.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
            WatchDb w = new WatchDb(file, c);
            w.createTables();
            return w;
        } catch (SQLException | IOException e) {
            throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens an existing database only to read it: nothing is written, so it works on a full disk and
     * beside a running watcher.
     *
     * @param file the database file
     * @throws ProofModeException with {@link Failure#IO} if it cannot be opened or is not ours
     */
    public static WatchDb openToRead(Path file) {
        try {
            return openToRead(file, "jdbc:sqlite:" + file.toAbsolutePath());
        } catch (SQLException e) {
            if (Files.isWritable(file.toAbsolutePath().getParent())) {
                throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + e.getMessage(), e);
            }
            // A home on a read-only file system (a mounted backup, a seized disk): nothing can write to it, so
            // SQLite may read it as immutable, without the shared-memory file it would otherwise create.
            try {
                return openToRead(file, "jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?immutable=1");
            } catch (SQLException again) {
                throw new ProofModeException(Failure.IO, "cannot open the watch database " + file + ": " + again.getMessage(), again);
            }
        }
    }

    private static WatchDb openToRead(Path file, String url) throws SQLException {
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setReadOnly(true);
        cfg.setBusyTimeout(10_000);
        Connection c = cfg.createConnection(url);
        try {
            WatchDb w = new WatchDb(file, c);
            w.checkVersion();
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
        String now = Instant.now().toString();
        try {
            db.setAutoCommit(false);
            try (PreparedStatement up = db.prepareStatement("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
                 PreparedStatement del = db.prepareStatement("DELETE FROM files WHERE path = ?");
                 PreparedStatement pr = db.prepareStatement("INSERT OR IGNORE INTO proofs VALUES (?,?,?,?)");
                 PreparedStatement me = db.prepareStatement("INSERT OR REPLACE INTO meta VALUES (?,?)")) {
                for (Map.Entry<String, Optional<TrackedFile>> e : b.files.entrySet()) {
                    if (e.getValue().isEmpty()) {
                        del.setString(1, e.getKey());
                        del.executeUpdate();
                        continue;
                    }
                    TrackedFile f = e.getValue().get();
                    up.setString(1, f.path());
                    up.setLong(2, f.size());
                    up.setLong(3, f.mtime());
                    up.setString(4, f.state().name());
                    up.setString(5, f.sha256().orElse(null));
                    up.setString(6, f.detectedAt().toString());
                    up.setString(7, f.detectedBy());
                    up.setString(8, JSON.writeValueAsString(f.snapshot()));
                    up.setInt(9, f.attempts());
                    up.setLong(10, f.nextTry());
                    up.setString(11, f.lastError().orElse(null));
                    up.setString(12, now);
                    up.executeUpdate();
                }
                for (ProofEntry p : b.proofs) {
                    pr.setString(1, p.sha256());
                    pr.setString(2, p.path());
                    pr.setString(3, p.detectedAt().toString());
                    pr.setString(4, p.provedAt().toString());
                    pr.executeUpdate();
                }
                for (Map.Entry<String, String> e : b.meta.entrySet()) {
                    me.setString(1, e.getKey());
                    me.setString(2, e.getValue());
                    me.executeUpdate();
                }
            }
            db.commit();
            b.clear();
        } catch (SQLException | IOException e) {
            rollback();
            throw new ProofModeException(Failure.IO, "cannot update the watch database " + file + ": " + e.getMessage(), e);
        } finally {
            autoCommit();
        }
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
        return query("SELECT * FROM proofs WHERE sha256 = ?", sha256, r -> r.next() ? Optional.of(proof(r)) : Optional.empty());
    }

    /** The most recent proofs, newest first. */
    public synchronized List<ProofEntry> lastProofs(int n) {
        return query("SELECT * FROM proofs ORDER BY proved_at DESC, rowid DESC LIMIT " + Math.max(0, n), null, r -> {
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

    /** The facts recorded about the watcher. */
    public synchronized Map<String, String> meta() {
        return query("SELECT key, value FROM meta", null, r -> {
            Map<String, String> out = new LinkedHashMap<>();
            while (r.next()) {
                out.put(r.getString(1), r.getString(2));
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

    private static TrackedFile file(ResultSet r) throws SQLException, IOException {
        return new TrackedFile(r.getString("path"), r.getLong("size"), r.getLong("mtime"), FileState.valueOf(r.getString("state")),
                Optional.ofNullable(r.getString("sha256")), Instant.parse(r.getString("detected_at")), r.getString("detected_by"),
                JSON.readValue(r.getString("snapshot"), MAP), r.getInt("attempts"), r.getLong("next_try"),
                Optional.ofNullable(r.getString("last_error")));
    }

    private static ProofEntry proof(ResultSet r) throws SQLException {
        return new ProofEntry(r.getString("sha256"), r.getString("path"), Instant.parse(r.getString("detected_at")),
                Instant.parse(r.getString("proved_at")));
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
