// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.S3Settings;
import picocli.CommandLine.Option;

/** Where a server keeps its state: options shared by {@code serve} and {@code server token}. */
final class ServerOptions {
    /** The environment variable that may hold the JDBC URL (keeps a password out of the process list). */
    static final String DB_ENV = "PROOFMODE_DB_URL";

    @Option(names = "--db", paramLabel = "JDBC_URL", description = "Database: jdbc:postgresql://HOST/DB?user=U&password=P or jdbc:sqlite:FILE "
            + "(default: $" + DB_ENV + ", else SQLite in PROOFMODE_HOME/server/evidence.db).")
    String db;

    @Option(names = "--blobs", paramLabel = "DIR|s3://BUCKET/PREFIX", description = "Where stored bundles are kept: a folder "
            + "(default: PROOFMODE_HOME/server/blobs), or an S3-compatible bucket with the endpoint, region and keys of the usual "
            + "AWS variables (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
            + "or AWS_PROFILE); uploads in progress stay in PROOFMODE_HOME/server/blobs/incoming.")
    String blobs;

    /**
     * The server's configuration: database, blob folder or bucket.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a malformed bucket location or AWS variable
     */
    ServerConfig config(CliContext ctx) {
        ServerConfig c = ServerConfig.defaults(ctx.home());
        Optional<String> url = Optional.ofNullable(db).or(() -> Optional.ofNullable(ctx.env().get(DB_ENV))).filter(s -> !s.isBlank());
        c = c.withJdbcUrl(url);
        if (blobs == null) {
            return c;
        }
        if (S3Settings.isS3(blobs)) {
            try {
                return c.withBucket(Optional.of(S3Settings.fromEnvironment(blobs, ctx.env())));
            } catch (IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "--blobs " + blobs + ": " + e.getMessage());
            }
        }
        return c.withStorage(ctx.resolve(Path.of(blobs)).toAbsolutePath().normalize(), c.trusted());
    }
}
