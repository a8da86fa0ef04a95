// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ReportPolicy;
import org.proofmode.server.ServerConfig;
import org.proofmode.util.InputFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode serve}: the verification and evidence server with its web page. */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Run the verification and evidence server: a web page to check bundles, and the HTTP API "
                + "(docs/http-api.md) to verify, keep and search evidence with a chain of custody.",
            "",
            "It listens on 127.0.0.1 unless --bind says otherwise. Verifying is open to anyone who can reach it; "
                + "keeping, reading and searching evidence need a token ('proofmode server token create NAME'). "
                + "The database is SQLite in PROOFMODE_HOME/server/ unless --db (or PROOFMODE_DB_URL) names a "
                + "PostgreSQL database; several servers may share one PostgreSQL database and one --blobs folder.",
            ""},
        footer = {"", "Examples:", "  proofmode serve                           http://127.0.0.1:8080/",
            "  proofmode serve --port 9000 --trust newsroom.asc",
            "  export PROOFMODE_DB_URL='jdbc:postgresql://db/evidence?user=pm&password=...'",
            "  proofmode serve --bind 10.0.0.5 --blobs /srv/blobs   one of several behind a proxy",
            "", ExitCodes.HELP_TABLE})
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to listen on (default: ${DEFAULT-VALUE}).", defaultValue = "127.0.0.1")
    String bind;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (default: ${DEFAULT-VALUE}; 0 picks a free one).", defaultValue = "8080")
    int port;

    @Mixin
    ServerOptions server;

    @Mixin
    LogKeyOptions log;

    @Option(names = "--witnesses", paramLabel = "FILE", description = "Witnesses to ask for cosignatures of each new checkpoint "
            + "(C2SP tlog-witness): one per line, '<witness verifier key> <URL>' ('proofmode log witness' prints its key); "
            + "# starts a comment.")
    Path witnesses;

    @Option(names = "--log-tsa", paramLabel = "URL", description = "An RFC 3161 time-stamp authority that stamps each checkpoint "
            + "served (GET /log/timestamp/SIZE), so that even the log's operator cannot back-date the log.")
    java.net.URI logTsa;

    @Option(names = "--witness-quorum", paramLabel = "N", description = "Serve a checkpoint, and give receipts under it, only once "
            + "N of the witnesses have cosigned it (default: 0, serve at once).", defaultValue = "0")
    int quorum;

    @Option(names = "--trust", paramLabel = "KEY.asc", description = "Trust this public key (repeatable). The home's device keys are always trusted.")
    List<Path> trust = new ArrayList<>();

    @Option(names = "--max-upload-mib", paramLabel = "MIB", description = "Largest upload (default: ${DEFAULT-VALUE} MiB).", defaultValue = "512")
    long maxUploadMib;

    @Option(names = "--rate", paramLabel = "N", description = "Requests per token and minute (default: ${DEFAULT-VALUE}).", defaultValue = "600")
    int rate;

    @Option(names = "--verify-timeout", paramLabel = "SECONDS", description = "Longest one verification may run (default: ${DEFAULT-VALUE}).", defaultValue = "60")
    long verifyTimeout;

    @Option(names = "--report-days", paramLabel = "DAYS", description = "How long a result kept with 'Keep a link to this result' "
            + "(POST /api/v1/verify?keep=true) stays readable; then it is deleted (default: ${DEFAULT-VALUE}).", defaultValue = "90")
    int reportDays;

    @Option(names = "--report-rate", paramLabel = "N", description = "Results kept per client address and minute (default: ${DEFAULT-VALUE}).",
            defaultValue = "20")
    int reportRate;

    @Option(names = "--max-connections-per-client", paramLabel = "N", description = "Connections one client address may hold open "
            + "at once; more are closed as they open, so slow clients cannot starve the others. Behind a proxy every client has "
            + "the proxy's address: raise it there (default: ${DEFAULT-VALUE}).", defaultValue = "32")
    int connectionsPerClient;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65_535 || maxUploadMib < 1 || rate < 1 || verifyTimeout < 1 || reportDays < 1 || reportRate < 1
                || connectionsPerClient < 1) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--port is 0 to 65535; --max-upload-mib, --rate, --verify-timeout, "
                    + "--report-days, --report-rate and --max-connections-per-client are positive");
        }
        List<PGPPublicKeyRing> trusted = new ArrayList<>();
        for (Path t : trust) {
            if (!Files.exists(t)) {
                throw new ProofModeException(Failure.INPUT_MISSING, t + ": no such key file");
            }
            trusted.addAll(OpenPgpKeys.readCertificates(InputFiles.read(t, InputFiles.KEY_BYTES, "key file"), t.toString()));
        }
        ServerConfig base = server.config(root.ctx);
        ServerConfig config = base.withListen(bind, port)
                .withBounds(maxUploadMib << 20, base.limits(), Duration.ofSeconds(verifyTimeout), rate)
                .withStorage(base.blobDir(), trusted)
                .withReports(new ReportPolicy(Duration.ofDays(reportDays), reportRate, base.reports().maxBytes()))
                .withConnectionsPerClient(connectionsPerClient)
                .withLog(log.policy(witnesses == null ? List.of() : LogKeyOptions.witnesses(witnesses), quorum, Optional.ofNullable(logTsa)));
        if (!ServerConfig.isLoopback(bind)) {
            root.ctx.err().println("proofmode: listening on " + bind + ", not only on this machine; put it behind TLS");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        ProofServer srv = ProofServer.start(config);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            srv.close();
            stopped.countDown();
        }, "proofmode-serve-stop"));
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        root.ctx.out().println("proofmode: serving http://" + host + ":" + srv.port() + "/ (database "
                + databaseName(config.effectiveJdbcUrl())
                + "); stop with Ctrl-C");
        root.ctx.out().println("proofmode: transparency log key " + srv.logKey());
        root.ctx.out().flush();
        stopped.await();
        return ExitCodes.OK;
    }

    /** How the start line names the database: SQLite by its file, PostgreSQL by engine only (its URL may hold a password). */
    static String databaseName(String jdbcUrl) {
        String sqlite = "jdbc:sqlite:";
        if (jdbcUrl.regionMatches(true, 0, sqlite, 0, sqlite.length())) {
            String file = jdbcUrl.substring(sqlite.length());
            int q = file.indexOf('?');
            return "SQLite " + (q >= 0 ? file.substring(0, q) : file);
        }
        return "PostgreSQL";
    }
}
