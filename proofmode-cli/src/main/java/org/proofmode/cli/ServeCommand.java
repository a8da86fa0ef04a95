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
import org.proofmode.server.service.EventLog;
import org.proofmode.server.service.UploadBounds;
import org.proofmode.server.store.S3Settings;
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
                + "PostgreSQL database; several servers may share one PostgreSQL database and one --blobs folder or bucket.",
            "",
            "With --blobs s3://BUCKET/PREFIX the bundles go to an S3-compatible store (AWS S3, MinIO, Ceph RGW, Garage) under "
                + "PREFIX/ab/cd/<sha256>; its endpoint, region and keys come from the AWS variables or profile, never from the "
                + "command line. Give the bucket the lifecycle rule AbortIncompleteMultipartUpload (e.g. 1 day): the parts of an "
                + "upload whose server was killed are never an object, but they take space until then.",
            ""},
        footer = {"", "Examples:", "  proofmode serve                           http://127.0.0.1:8080/",
            "  proofmode serve --port 9000 --trust newsroom.asc",
            "  proofmode serve --identity /etc/proofmode/desk.key   also takes bundles encrypted to the desk (age)",
            "  export PROOFMODE_DB_URL='jdbc:postgresql://db/evidence?user=pm&password=...'",
            "  proofmode serve --bind 10.0.0.5 --blobs /srv/blobs   one of several behind a proxy",
            "  export AWS_ENDPOINT_URL=http://minio:9000 AWS_PROFILE=evidence",
            "  proofmode serve --blobs s3://evidence/intake --s3-path-style   bundles in MinIO",
            "  proofmode serve --blobs s3://archive --s3-object-lock COMPLIANCE --s3-retention-days 3650",
            "  proofmode serve --blobs s3://evidence/intake --log-to-bucket   the log readable from the bucket itself",
            "  proofmode serve --log-format json --instance intake-1 2>>/var/log/proofmode/events.jsonl",
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

    @Option(names = "--identity", paramLabel = "FILE", description = "The server's age identity file (from age-keygen; readable "
            + "by its owner only): bundles encrypted to its recipient (GET /api/v1/recipient) are decrypted on upload and kept "
            + "decrypted.")
    Path identity;

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
            + "the proxy's address: raise it there (default: ${DEFAULT-VALUE}). At most 200 client connections are open in all; "
            + "when they are, a client holding fewer takes the place of the biggest holder's oldest.", defaultValue = "32")
    int connectionsPerClient;

    @Option(names = "--max-uploads-per-token", paramLabel = "N", description = "Resumable uploads (POST /api/v1/uploads) one "
            + "token may have in progress at once; one more is 429 until one finishes or expires (default: ${DEFAULT-VALUE}).",
            defaultValue = "8")
    int uploadsPerToken;

    @Option(names = "--max-uploads", paramLabel = "N", description = "Resumable uploads in progress on the server in all; one "
            + "more is 507 until one finishes or expires (default: ${DEFAULT-VALUE}).", defaultValue = "256")
    int uploadsInAll;

    @Option(names = "--max-upload-reserve-mib", paramLabel = "MiB", description = "Disk the resumable uploads in progress may "
            + "announce (Upload-Length) in all; an upload that does not fit is 507 (default: ${DEFAULT-VALUE}).", defaultValue = "8192")
    long uploadReserveMib;

    @Option(names = "--upload-expiry-hours", paramLabel = "HOURS", description = "How long a resumable upload waits for its next "
            + "bytes before it is dropped and its share freed (default: ${DEFAULT-VALUE}).", defaultValue = "24")
    int uploadExpiryHours;

    @Option(names = "--log-to-bucket", description = "Copy the transparency log to the bucket of --blobs s3://BUCKET/PREFIX "
            + "as it grows, under PREFIX/log/ (checkpoint and tiles, the paths of GET /log/...), so that the bucket or a CDN "
            + "in front of it serves the log without a server.")
    boolean logToBucket;

    @Option(names = "--s3-path-style", description = "Address the bucket as ENDPOINT/BUCKET/KEY instead of BUCKET.ENDPOINT/KEY "
            + "(MinIO, Ceph RGW, Garage and s3proxy need it).")
    boolean pathStyle;

    @Option(names = "--s3-sse", paramLabel = "AES256|aws:kms", description = "Server-side encryption asked for on each object: "
            + "AES256 (keys kept by the store) or aws:kms (with --s3-kms-key, else the bucket's KMS key).")
    String sse;

    @Option(names = "--s3-kms-key", paramLabel = "KEY_ID", description = "The KMS key id or ARN for --s3-sse aws:kms.")
    String kmsKey;

    @Option(names = "--s3-object-lock", paramLabel = "GOVERNANCE|COMPLIANCE", description = "Object-lock retention on each "
            + "stored bundle (WORM; the bucket must have object lock enabled): a COMPLIANCE lock cannot be lifted by anyone before "
            + "it ends, a GOVERNANCE lock only by a user allowed to bypass it. With --s3-retention-days.")
    S3Settings.LockMode lockMode;

    @Option(names = "--s3-retention-days", paramLabel = "DAYS", description = "How long each bundle stays locked, from its upload.")
    Integer retentionDays;

    @Option(names = "--log-format", paramLabel = "text|json|none", description = "The server's event log on standard error: "
            + "one line per start, stop, request (method, path without its query, status, time, client address, the item an "
            + "intake kept and its verdict; the exception of a failure it could not handle) and transparency-log delay; "
            + "'json' gives JSON lines for a log pipeline, 'none' nothing (default: ${DEFAULT-VALUE}).", defaultValue = "text")
    String events;

    @Option(names = "--instance", paramLabel = "NAME", description = "This server's name in its event lines, where several "
            + "share a database and a bucket (default: HOST:PID).")
    String instance;

    @Override
    public Integer call() throws Exception {
        EventLog eventLog = EventLog.of(root.ctx.err(), events, Optional.ofNullable(instance));
        if (port < 0 || port > 65_535 || maxUploadMib < 1 || rate < 1 || verifyTimeout < 1 || reportDays < 1 || reportRate < 1
                || connectionsPerClient < 1 || uploadsPerToken < 1 || uploadsInAll < 1 || uploadReserveMib < 1 || uploadExpiryHours < 1
                || uploadReserveMib > Long.MAX_VALUE >> 20) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--port is 0 to 65535; --max-upload-mib, --rate, --verify-timeout, "
                    + "--report-days, --report-rate, --max-connections-per-client, --max-uploads-per-token, --max-uploads, "
                    + "--max-upload-reserve-mib and --upload-expiry-hours are positive");
        }
        List<PGPPublicKeyRing> trusted = new ArrayList<>();
        for (Path t : trust) {
            if (!Files.exists(t)) {
                throw new ProofModeException(Failure.INPUT_MISSING, t + ": no such key file");
            }
            trusted.addAll(OpenPgpKeys.readCertificates(InputFiles.read(t, InputFiles.KEY_BYTES, "key file"), t.toString()));
        }
        ServerConfig base = server.config(root.ctx);
        base = base.withBucket(base.bucket().map(this::objectOptions));
        if (base.bucket().isEmpty() && (pathStyle || sse != null || kmsKey != null || lockMode != null || retentionDays != null)) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "the --s3-* options go with --blobs s3://BUCKET/PREFIX");
        }
        if (base.bucket().isEmpty() && logToBucket) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--log-to-bucket goes with --blobs s3://BUCKET/PREFIX");
        }
        ServerConfig config = base.withListen(bind, port)
                .withBounds(maxUploadMib << 20, base.limits(), Duration.ofSeconds(verifyTimeout), rate)
                .withStorage(base.blobDir(), trusted)
                .withReports(new ReportPolicy(Duration.ofDays(reportDays), reportRate, base.reports().maxBytes()))
                .withConnectionsPerClient(connectionsPerClient)
                .withUploads(new UploadBounds(uploadsPerToken, uploadsInAll, uploadReserveMib << 20, Duration.ofHours(uploadExpiryHours)))
                .withLog(log.policy(witnesses == null ? List.of() : LogKeyOptions.witnesses(witnesses), quorum, Optional.ofNullable(logTsa))
                        .withCopyToBucket(logToBucket))
                .withIdentity(Optional.ofNullable(identity).map(root.ctx::resolve));
        if (!ServerConfig.isLoopback(bind)) {
            root.ctx.err().println("proofmode: listening on " + bind + ", not only on this machine; put it behind TLS");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        ProofServer srv = ProofServer.start(config, eventLog);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            srv.close();
            stopped.countDown();
        }, "proofmode-serve-stop"));
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        root.ctx.out().println("proofmode: serving http://" + host + ":" + srv.port() + "/ (database "
                + ServerConfig.databaseName(config.effectiveJdbcUrl()) + config.bucket().map(b -> ", blobs " + b.location()).orElse("")
                + "); stop with Ctrl-C");
        root.ctx.out().println("proofmode: transparency log key " + srv.logKey());
        srv.recipients().forEach(r -> root.ctx.out().println("proofmode: bundles may be encrypted to " + r));
        root.ctx.out().flush();
        stopped.await();
        return ExitCodes.OK;
    }

    /** The bucket with the path-style, encryption and retention options given. */
    private S3Settings objectOptions(S3Settings bucket) {
        if ((lockMode == null) != (retentionDays == null)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--s3-object-lock and --s3-retention-days go together");
        }
        if (kmsKey != null && !"aws:kms".equals(sse)) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--s3-kms-key goes with --s3-sse aws:kms");
        }
        try {
            Optional<S3Settings.Encryption> encryption = Optional.ofNullable(sse)
                    .map(a -> S3Settings.Encryption.parse(a, Optional.ofNullable(kmsKey)));
            Optional<S3Settings.Retention> retention = Optional.ofNullable(lockMode)
                    .map(m -> new S3Settings.Retention(m, retentionDays));
            return bucket.withPathStyle(pathStyle).withObjectOptions(encryption, retention);
        } catch (IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, e.getMessage());
        }
    }
}
