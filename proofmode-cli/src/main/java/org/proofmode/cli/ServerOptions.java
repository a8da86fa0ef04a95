// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.server.ServerConfig;
import picocli.CommandLine.Option;

/** Where a server keeps its state: options shared by {@code serve} and {@code server token}. */
final class ServerOptions {
    /** The environment variable that may hold the JDBC URL (keeps a password out of the process list). */
    static final String DB_ENV = "PROOFMODE_DB_URL";

    @Option(names = "--db", paramLabel = "JDBC_URL", description = "Database: jdbc:postgresql://HOST/DB?user=U&password=P or jdbc:sqlite:FILE "
            + "(default: $" + DB_ENV + ", else SQLite in PROOFMODE_HOME/server/evidence.db).")
    String db;

    @Option(names = "--blobs", paramLabel = "DIR", description = "Folder of stored bundles (default: PROOFMODE_HOME/server/blobs).")
    Path blobs;

    ServerConfig config(CliContext ctx) {
        ServerConfig c = ServerConfig.defaults(ctx.home());
        Optional<String> url = Optional.ofNullable(db).or(() -> Optional.ofNullable(ctx.env().get(DB_ENV))).filter(s -> !s.isBlank());
        c = c.withJdbcUrl(url);
        return blobs == null ? c : c.withStorage(blobs.toAbsolutePath().normalize(), c.trusted());
    }
}
