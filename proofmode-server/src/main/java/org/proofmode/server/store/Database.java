// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;

/**
 * The server's database: a connection pool on SQLite (one file, one machine) or PostgreSQL (shared by
 * several instances), migrated by Flyway when opened. All state that matters lives here and in the blob
 * store, none in memory.
 */
public final class Database implements AutoCloseable {
    /** The database engines the server runs on. */
    public enum Vendor {
        /** Embedded SQLite, the default. */
        SQLITE("sqlite", "INTEGER PRIMARY KEY AUTOINCREMENT"),
        /** PostgreSQL, for several instances or large archives. */
        POSTGRESQL("postgresql", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY");

        private final String folder;
        private final String identity;

        Vendor(String folder, String identity) {
            this.folder = folder;
            this.identity = identity;
        }

        /** Recognises the engine of a JDBC URL. */
        static Vendor of(String jdbcUrl) {
            String u = jdbcUrl.toLowerCase(Locale.ROOT);
            if (u.startsWith("jdbc:sqlite:")) {
                return SQLITE;
            }
            if (u.startsWith("jdbc:postgresql:")) {
                return POSTGRESQL;
            }
            throw new ProofModeException(Failure.BAD_ARGUMENT,
                    "unsupported database URL (use jdbc:sqlite:FILE or jdbc:postgresql://HOST/DB)");
        }
    }

    private final HikariDataSource pool;
    private final Vendor vendor;

    private Database(HikariDataSource pool, Vendor vendor) {
        this.pool = pool;
        this.vendor = vendor;
    }

    /**
     * Opens a database and brings its schema up to date.
     *
     * @param jdbcUrl {@code jdbc:sqlite:FILE} or {@code jdbc:postgresql://...}; user and password may be in
     *     the URL or in {@code PGUSER}/{@code PGPASSWORD}-style URL parameters
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for an unsupported URL, {@link Failure#IO}
     *     if the database cannot be reached or migrated
     */
    public static Database open(String jdbcUrl) {
        Vendor vendor = Vendor.of(jdbcUrl);
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(jdbcUrl);
        cfg.setPoolName("proofmode-" + vendor.folder);
        cfg.setConnectionTimeout(30_000);
        if (vendor == Vendor.SQLITE) {
            createParent(jdbcUrl);
            // One writer at a time: IMMEDIATE transactions take the write lock up front, so two writers
            // wait for each other (busy_timeout) instead of failing on a lock upgrade.
            cfg.addDataSourceProperty("journal_mode", "WAL");
            cfg.addDataSourceProperty("busy_timeout", "30000");
            cfg.addDataSourceProperty("transaction_mode", "IMMEDIATE");
            cfg.addDataSourceProperty("foreign_keys", "true");
            cfg.addDataSourceProperty("synchronous", "FULL");
            cfg.setMaximumPoolSize(4);
        } else {
            cfg.setMaximumPoolSize(10);
        }
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(cfg);
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.IO, "cannot open the database: " + rootMessage(e), e);
        }
        try {
            Flyway.configure().dataSource(ds).locations("classpath:org/proofmode/server/db/common")
                    .placeholders(Map.of("identity", vendor.identity))
                    .javaMigrations(new CustodyChainMigration(), new SearchIndexMigration()).load().migrate();
        } catch (FlywayException e) {
            ds.close();
            throw new ProofModeException(Failure.IO, "cannot migrate the database: " + rootMessage(e), e);
        }
        return new Database(ds, vendor);
    }

    /** The engine. */
    public Vendor vendor() {
        return vendor;
    }

    /** A connection from the pool; close it to give it back. */
    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /** Runs work in one transaction, committed when it returns and rolled back when it throws. */
    public <T> T inTransaction(SqlWork<T> work) {
        try (Connection c = connection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw storageFailure(e);
        }
    }

    /** A database failure as the library's storage failure. */
    public static ProofModeException storageFailure(SQLException e) {
        return new ProofModeException(Failure.IO, "database: " + e.getMessage(), e);
    }

    @Override
    public void close() {
        pool.close();
    }

    /** Work inside a transaction. */
    @FunctionalInterface
    public interface SqlWork<T> {
        /** Does the work on the connection. */
        T run(Connection c) throws SQLException;
    }

    private static void createParent(String jdbcUrl) {
        String file = jdbcUrl.substring("jdbc:sqlite:".length());
        int q = file.indexOf('?');
        if (q >= 0) {
            file = file.substring(0, q);
        }
        if (file.isEmpty() || file.startsWith(":memory:") || file.startsWith("file:")) {
            return;
        }
        Path db = Path.of(file).toAbsolutePath();
        try {
            // Owner-only, like the rest of the home: SQLite gives its -wal and -shm files the mode of the
            // database file, so creating that one empty and owner-only covers all three.
            AtomicFiles.createOwnerOnlyFile(db);
        } catch (FileAlreadyExistsException e) {
            // an existing database keeps its permissions
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot create " + db + ": " + e.getMessage(), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
