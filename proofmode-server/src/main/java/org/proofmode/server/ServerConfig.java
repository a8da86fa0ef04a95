// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.server.service.UploadBounds;
import org.proofmode.server.store.S3Settings;
import org.proofmode.util.Home;

/**
 * How a server runs.
 *
 * @param bind the address to listen on; loopback unless a front proxy is meant to reach it
 * @param port the port, 0 for any free one
 * @param jdbcUrl the database; empty for SQLite in {@code <home>/server/evidence.db}
 * @param home the ProofMode home (its device keys are trusted, as by {@code proofmode verify})
 * @param blobDir where bundles are kept, content-addressed; shared by every instance of one deployment. With
 *     a bucket, only uploads in progress are kept there ({@code incoming/})
 * @param maxUploadBytes most bytes of one upload
 * @param limits bounds on hostile bundles (entries, proof file sizes, decompression ratio)
 * @param verifyTimeout longest a verification may run before the request fails
 * @param requestsPerMinute most requests that need a token, per token and minute
 * @param trusted more keys whose signatures make a proof TRUSTED
 * @param reports bounds on verification reports kept for a permalink
 * @param connectionsPerClient most connections open at once from one client address; more are closed as
 *     they arrive, so that a client holding connections open cannot starve the others
 * @param log how the transparency log is kept
 * @param bucket an S3-compatible bucket that keeps the bundles instead of {@code blobDir}
 * @param identity the server's age identity file: bundles encrypted to its recipient are decrypted on intake
 * @param uploads bounds on resumable uploads in progress
 */
public record ServerConfig(String bind, int port, Optional<String> jdbcUrl, Path home, Path blobDir,
        long maxUploadBytes, BundleLimits limits, Duration verifyTimeout, int requestsPerMinute,
        List<PGPPublicKeyRing> trusted, ReportPolicy reports, int connectionsPerClient, LogPolicy log,
        Optional<S3Settings> bucket, Optional<Path> identity, UploadBounds uploads) {
    /** Default upload bound: 512 MiB. */
    public static final long DEFAULT_MAX_UPLOAD = 512L << 20;
    /** Default rate: 600 requests a minute per token. */
    public static final int DEFAULT_RATE = 600;
    /** Default verification time bound. */
    public static final Duration DEFAULT_VERIFY_TIMEOUT = Duration.ofSeconds(60);

    /** Default connections at once per client address. */
    public static final int DEFAULT_CONNECTIONS_PER_CLIENT = 32;

    /** Validates the fields. */
    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(blobDir, "blobDir");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(verifyTimeout, "verifyTimeout");
        Objects.requireNonNull(reports, "reports");
        Objects.requireNonNull(uploads, "uploads");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(identity, "identity");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (maxUploadBytes < 1 || requestsPerMinute < 1 || connectionsPerClient < 1 || verifyTimeout.isNegative() || verifyTimeout.isZero()) {
            throw new IllegalArgumentException("limits must be positive");
        }
        trusted = List.copyOf(trusted);
    }

    /** The defaults for a home: loopback, port 8080, SQLite and blobs under {@code <home>/server}. */
    public static ServerConfig defaults(Path home) {
        Path h = home.toAbsolutePath().normalize();
        return new ServerConfig("127.0.0.1", 8080, Optional.empty(), h, Home.SERVER_BLOBS.in(h),
                DEFAULT_MAX_UPLOAD, BundleLimits.DEFAULT, DEFAULT_VERIFY_TIMEOUT, DEFAULT_RATE, List.of(),
                ReportPolicy.DEFAULT, DEFAULT_CONNECTIONS_PER_CLIENT, LogPolicy.DEFAULT, Optional.empty(), Optional.empty(), UploadBounds.DEFAULT);
    }

    /** The JDBC URL in force: the given one, or SQLite in the home. */
    public String effectiveJdbcUrl() {
        return jdbcUrl.orElseGet(() -> "jdbc:sqlite:" + Home.SERVER_DATABASE.in(home));
    }

    /** How the start line names a database: SQLite by its file, PostgreSQL by engine only (its URL may hold a password). */
    public static String databaseName(String jdbcUrl) {
        String sqlite = "jdbc:sqlite:";
        if (jdbcUrl.regionMatches(true, 0, sqlite, 0, sqlite.length())) {
            String file = jdbcUrl.substring(sqlite.length());
            int q = file.indexOf('?');
            return "SQLite " + (q >= 0 ? file.substring(0, q) : file);
        }
        return "PostgreSQL";
    }

    /** Whether an address (a name, or a literal as a request's remote address is) is this machine's loopback. */
    public static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** A copy with another address and port. */
    public ServerConfig withListen(String newBind, int newPort) {
        return new ServerConfig(newBind, newPort, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, log, bucket, identity, uploads);
    }

    /** A copy with another database. */
    public ServerConfig withJdbcUrl(Optional<String> url) {
        return new ServerConfig(bind, port, url, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, log, bucket, identity, uploads);
    }

    /** A copy with other bounds. */
    public ServerConfig withBounds(long newMaxUpload, BundleLimits newLimits, Duration newTimeout, int newRate) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, newMaxUpload, newLimits, newTimeout, newRate, trusted, reports, connectionsPerClient, log, bucket, identity, uploads);
    }

    /** A copy with other blob folder and trusted keys. */
    public ServerConfig withStorage(Path newBlobDir, List<PGPPublicKeyRing> newTrusted) {
        return new ServerConfig(bind, port, jdbcUrl, home, newBlobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, newTrusted, reports, connectionsPerClient, log, bucket, identity, uploads);
    }

    /** A copy with other bounds on kept reports. */
    public ServerConfig withReports(ReportPolicy newReports) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, newReports, connectionsPerClient, log, bucket, identity, uploads);
    }

    /** A copy with another bound on connections per client address. */
    public ServerConfig withConnectionsPerClient(int perClient) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, perClient, log, bucket, identity, uploads);
    }

    /** A copy that keeps bundles in a bucket (or, with none, in {@link #blobDir()}). */
    public ServerConfig withBucket(Optional<S3Settings> newBucket) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, log, newBucket, identity, uploads);
    }

    /** A copy with another way of keeping the log. */
    public ServerConfig withLog(LogPolicy newLog) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, newLog, bucket, identity, uploads);
    }

    /** A copy with an age identity file (or none) for bundles encrypted to this server. */
    public ServerConfig withIdentity(Optional<Path> newIdentity) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, log, bucket, newIdentity, uploads);
    }

    /** A copy with other bounds on resumable uploads in progress. */
    public ServerConfig withUploads(UploadBounds newUploads) {
        return new ServerConfig(bind, port, jdbcUrl, home, blobDir, maxUploadBytes, limits, verifyTimeout,
                requestsPerMinute, trusted, reports, connectionsPerClient, log, bucket, identity, newUploads);
    }
}
