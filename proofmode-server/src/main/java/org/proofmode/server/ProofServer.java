// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import io.javalin.Javalin;
import io.javalin.config.SizeUnit;
import io.javalin.http.Context;
import io.javalin.http.staticfiles.JavalinStaticResourceHandler;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.server.http.Access;
import org.proofmode.server.http.ClientConnections;
import org.proofmode.server.http.CollectionApi;
import org.proofmode.server.http.EncryptedUploads;
import org.proofmode.server.http.EvidenceApi;
import org.proofmode.server.http.JettyErrors;
import org.proofmode.server.http.LogApi;
import org.proofmode.server.http.Problems;
import org.proofmode.server.http.ReportApi;
import org.proofmode.server.http.ResumableUploads;
import org.proofmode.server.http.Upload;
import org.proofmode.server.http.WebPage;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.EventLog;
import org.proofmode.server.service.Metrics;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.service.Verification;
import org.proofmode.server.store.BlobStore;
import org.proofmode.server.store.CollectionIndex;
import org.proofmode.server.store.Database;
import org.proofmode.server.store.EvidenceSearch;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.FileBlobStore;
import org.proofmode.server.store.LogStore;
import org.proofmode.server.store.NotarizationStore;
import org.proofmode.server.store.RateLimiter;
import org.proofmode.server.store.ReportStore;
import org.proofmode.server.store.S3BlobStore;
import org.proofmode.server.store.TokenStore;
import org.proofmode.tlog.SignedNote;

/**
 * The verification and evidence server: the HTTP API ({@code docs/http-api.md}) and the web page, on
 * Javalin. State lives only in the database and the blob folder or bucket, so several instances can share them.
 *
 * <p>Security: listens on loopback unless told otherwise; every response carries a strict Content
 * Security Policy and {@code nosniff}, {@code frame-ancestors 'none'}, {@code no-referrer}; no request
 * names a file on the server.
 */
public final class ProofServer implements AutoCloseable {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** The security headers of every answer, including the ones Jetty gives itself. */
    static final Map<String, String> SECURITY_HEADERS = securityHeaders();

    /** Least request body rate, bytes per second, once a body has started: slower bodies are cut off. */
    static final long MIN_BODY_BYTES_PER_SECOND = 1024;

    /** How long a connection may send nothing before it is closed. */
    static final long IDLE_TIMEOUT_MS = 30_000;

    /** Most threads serving requests (a request whose body is being read holds one). */
    static final int THREADS = 250;

    /**
     * Most client connections open at once, in all: below {@link #THREADS}, so that connections reading slow
     * bodies cannot take every thread and a new client is still answered (see {@link ClientConnections}).
     */
    static final int MAX_CONNECTIONS = 200;

    /**
     * How long a file in the incoming folder may go unchanged, or a multipart upload to the bucket stay
     * unfinished, before a starting server takes it for the leftover of an upload whose server was killed
     * (other instances sharing the folder or bucket may be uploading younger ones).
     */
    static final Duration STALE_UPLOAD = Duration.ofHours(1);

    /** The request attribute holding the exception a handler threw, for the event log. */
    private static final String FAILURE = "proofmode.failure";

    private final Database db;
    private final Verification verification;
    private final LogSequencer sequencer;
    private final String logKey;
    private final Javalin app;

    private final BlobStore blobs;
    private final EventLog events;
    private final EncryptedUploads encrypted;
    private final ClientConnections connections;

    private ProofServer(Database db, Verification verification, LogSequencer sequencer, String logKey, Javalin app, BlobStore blobs,
            EventLog events, EncryptedUploads encrypted, ClientConnections connections) {
        this.db = db;
        this.connections = connections;
        this.encrypted = encrypted;
        this.events = events;
        this.blobs = blobs;
        this.verification = verification;
        this.sequencer = sequencer;
        this.logKey = logKey;
        this.app = app;
    }

    /**
     * Opens the database, migrates it and starts listening.
     *
     * @throws ProofModeException with {@link Failure#IO} if the database, the blob folder or bucket, or the port
     *     cannot be used
     */
    public static ProofServer start(ServerConfig config) {
        return start(config, EventLog.OFF);
    }

    /**
     * Opens the database, migrates it and starts listening, telling the operator what happens on {@code events}.
     *
     * @throws ProofModeException with {@link Failure#IO} if the database, the blob folder or bucket, or the port
     *     cannot be used
     */
    public static ProofServer start(ServerConfig config, EventLog events) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(events, "events");
        Database db = Database.open(config.effectiveJdbcUrl());
        Verification verification = null;
        LogSequencer sequencer = null;
        BlobStore blobs = null;
        EncryptedUploads encrypted = null;
        try {
            LogStore logStore = new LogStore(db);
            SignedNote.Signer logKey = openLog(config);
            logStore.open(logKey);
            FileBlobStore folder = new FileBlobStore(config.blobDir());
            Path incoming = folder.incoming();
            blobs = config.bucket().isPresent() ? S3BlobStore.open(config.bucket().get(), incoming,
                    STALE_UPLOAD.plus(config.verifyTimeout())) : folder;
            BlobStore store = blobs;
            if (config.log().copyToBucket() && !(store instanceof S3BlobStore)) {
                throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "copying the log to the bucket needs --blobs s3://BUCKET/PREFIX");
            }
            Optional<LogMirror> mirror = config.log().copyToBucket()
                    ? Optional.of(new LogMirror(logStore, (S3BlobStore) store, config.log().quorum())) : Optional.empty();
            sequencer = new LogSequencer(logStore, logKey, config.log(), events, mirror);
            LogApi log = new LogApi(logStore, config.log().quorum());
            LogSequencer logSequencer = sequencer;
            Metrics metrics = new Metrics(() -> logStore.state().size(), logStore::queued);
            removeStaleUploads(incoming, STALE_UPLOAD.plus(config.verifyTimeout()));
            ClientConnections perClient = new ClientConnections(config.connectionsPerClient(), MAX_CONNECTIONS, events, Clock.systemUTC());
            verification = new Verification(config.home(), config.trusted(), config.limits(), config.verifyTimeout());
            encrypted = EncryptedUploads.open(config.identity(), incoming);
            Access access = new Access(new TokenStore(db), new RateLimiter(db, config.requestsPerMinute(), Clock.systemUTC()));
            ReportPolicy policy = config.reports();
            ReportApi reports = new ReportApi(new ReportStore(db, policy.retention(), Clock.systemUTC()),
                    new RateLimiter(db, policy.keepsPerMinute(), Clock.systemUTC()), policy.maxBytes());
            EvidenceApi api = new EvidenceApi(verification, new EvidenceStore(db, store), new EvidenceSearch(db),
                    new NotarizationStore(db), access, reports, incoming, config.maxUploadBytes(), log, metrics, encrypted);
            CollectionApi collections = new CollectionApi(new CollectionIndex(db), access);
            ResumableUploads uploads = new ResumableUploads(incoming, config.maxUploadBytes(), config.uploads(), access, api);
            EncryptedUploads encryptedUploads = encrypted;
            WebPage page = new WebPage();
            Javalin app = Javalin.create(c -> {
                c.startup.showJavalinBanner = false;
                c.jetty.host = config.bind();
                c.jetty.port = config.port();
                c.jetty.threadPool = new QueuedThreadPool(THREADS, 8, 60_000);
                c.jetty.multipartConfig.cacheDirectory(incoming.toString());
                c.jetty.multipartConfig.maxFileSize(config.maxUploadBytes(), SizeUnit.BYTES);
                c.jetty.multipartConfig.maxTotalRequestSize(config.maxUploadBytes(), SizeUnit.BYTES);
                c.jetty.multipartConfig.maxInMemoryFileSize(1, SizeUnit.MB);
                c.http.maxRequestSize = 1L << 20;
                c.http.prefer405over404 = true;
                c.jetty.modifyHttpConfiguration(h -> h.setIdleTimeout(IDLE_TIMEOUT_MS));
                c.jetty.modifyServer(server -> {
                    server.setErrorHandler(new JettyErrors(SECURITY_HEADERS));
                    server.addEventListener(new LifeCycle.Listener() {
                        @Override
                        public void lifeCycleStarting(LifeCycle event) {
                            if (!(server.getHandler() instanceof MinimumDataRateHandler)) {
                                server.setHandler(new MinimumDataRateHandler(server.getHandler(), MIN_BODY_BYTES_PER_SECOND, 0));
                            }
                            for (Connector k : server.getConnectors()) {
                                k.addEventListener(perClient);
                                if (k instanceof AbstractConnector a) {
                                    a.setIdleTimeout(IDLE_TIMEOUT_MS);
                                }
                            }
                        }
                    });
                });
                // Javalin's own static files, read through the class loader's open jar: Jetty's resource
                // handler mounts the jar as a zip file system for each resource base, each holding the
                // whole jar's index on the heap (several MiB for the shaded jar, a few times over).
                c.resourceHandler(new JavalinStaticResourceHandler());
                c.staticFiles.add(s -> {
                    s.hostedPath = "/";
                    s.directory = "/org/proofmode/server/web";
                    s.location = Location.CLASSPATH;
                });
                // The map's land outline is the core's, which the verification reports draw too; its folder
                // holds only it and its notice (not the report package's classes).
                c.staticFiles.add(s -> {
                    s.hostedPath = "/";
                    s.directory = "/org/proofmode/report/land";
                    s.location = Location.CLASSPATH;
                });
                c.routes.before(ProofServer::headers);
                c.routes.after(ctx -> metrics.answered(ctx.statusCode()));
                for (String path : List.of("/", "/index.html")) {
                    c.routes.get(path, page::serve);
                    c.routes.head(path, page::serve);
                }
                c.routes.get("/metrics", ctx -> {
                    if (!ServerConfig.isLoopback(ctx.req().getRemoteAddr())) {
                        throw new ApiException(ProblemType.FORBIDDEN, "metrics are served to this machine only");
                    }
                    metrics.serve(ctx);
                });
                c.routes.get("/api/v1/health", ctx -> ctx.contentType("application/json").result("{\"status\":\"ok\",\"log\":\""
                        + (logSequencer.lastFailure().isPresent() ? "behind" : "ok") + "\"}\n"));
                c.routes.get("/api/v1/ready", ctx -> ready(ctx, db, folder, store, logSequencer));
                c.routes.post("/api/v1/verify", api::verify);
                c.routes.post("/api/v1/compare", api::compare);
                c.routes.get("/api/v1/reports/{id}", reports::get);
                c.routes.get("/api/v1/reports/{id}/pdf", reports::pdf);
                c.routes.post("/api/v1/evidence", api::store);
                c.routes.post("/api/v1/uploads", uploads::create);
                c.routes.head("/api/v1/uploads/{id}", uploads::offset);
                c.routes.patch("/api/v1/uploads/{id}", uploads::append);
                c.routes.get("/api/v1/evidence", api::find);
                c.routes.get("/api/v1/collections", collections::find);
                c.routes.get("/api/v1/evidence/{sha256}", api::get);
                c.routes.get("/api/v1/evidence/{sha256}/bundle", api::download);
                c.routes.post("/api/v1/evidence/{sha256}/reverify", api::reverify);
                c.routes.get("/api/v1/evidence/{sha256}/receipt", api::receipt);
                c.routes.get("/api/v1/evidence/{sha256}/report", api::report);
                c.routes.get("/api/v1/token", api::token);
                c.routes.post("/api/v1/notarizations", api::notarize);
                c.routes.get("/api/v1/log/key", log::key);
                c.routes.get("/api/v1/recipient", encryptedUploads::recipient);
                c.routes.get("/log/<path>", log::read);
                c.routes.get("/api/v1/notarizations", api::lookup);
                c.routes.exception(Exception.class, (e, ctx) -> {
                    ctx.attribute(FAILURE, e);
                    Problems.respond(ctx, e);
                });
                c.requestLogger.http((ctx, ms) -> request(events, ctx, ms));
                c.routes.error(404, ProofServer::frameworkError);
                c.routes.error(405, ProofServer::frameworkError);
                c.routes.error(413, ProofServer::frameworkError);
                c.routes.error(500, ProofServer::frameworkError);
            });
            app.start();
            Map<String, Object> started = new LinkedHashMap<>();
            started.put("listen", config.bind() + ":" + app.port());
            started.put("database", config.effectiveJdbcUrl().startsWith("jdbc:postgresql:") ? "postgresql" : "sqlite");
            started.put("blobs", blobs instanceof S3BlobStore s3 ? s3.location() : "folder");
            started.put("logToBucket", mirror.isPresent());
            started.put("logKey", logKey.key().verifierKey());
            events.info("start", started);
            started.put("recipient", encrypted.recipients().isEmpty() ? "none" : encrypted.recipients().get(0));
            return new ProofServer(db, verification, sequencer, logKey.key().verifierKey(), app, store, events, encrypted, perClient);
        } catch (IOException | RuntimeException e) {
            if (blobs != null) {
                blobs.close();
            }
            if (sequencer != null) {
                sequencer.close();
            }
            if (verification != null) {
                verification.close();
            }
            if (encrypted != null) {
                encrypted.close();
            }
            db.close();
            if (e instanceof ProofModeException p) {
                throw p;
            }
            throw new ProofModeException(Failure.IO, "cannot start the server on " + config.bind() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
    }

    /** One {@code request} line: a failure the server could not handle (a 5xx answer) is an error line. */
    private static void request(EventLog events, Context ctx, float ms) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("method", ctx.method().name());
        f.put("path", ctx.path());
        f.put("status", ctx.statusCode());
        f.put("ms", Math.round(ms * 10) / 10.0);
        f.put("remote", ctx.req().getRemoteAddr());
        f.put("item", ctx.attribute(EvidenceApi.ITEM));
        f.put("verdict", ctx.attribute(EvidenceApi.VERDICT));
        Exception failure = ctx.attribute(FAILURE);
        if (ctx.statusCode() >= 500 && failure != null) {
            f.putAll(EventLog.exception(failure));
        }
        if (ctx.statusCode() < 500) {
            events.info("request", f);
        } else if (failure instanceof ApiException) {
            events.warn("request", f); // saturated, or out of time: the server refused, nothing failed
        } else {
            events.error("request", f);
        }
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    /** The bounds on client connections, with what they hold now (tests and diagnostics). */
    ClientConnections connections() {
        return connections;
    }

    /** The database (for token commands run beside a server). */
    public Database database() {
        return db;
    }

    /**
     * Makes the home's log key on first start (protected by the configured passphrase, or a generated one
     * kept beside it) and unlocks it.
     */
    private static SignedNote.Signer openLog(ServerConfig config) {
        LogPolicy p = config.log();
        LogKey key = LogKey.forLog(config.home());
        if (key.publicKey().isEmpty()) {
            key.create(p::originFor, p.passphraseFile().map(Passphrase::read));
        }
        return key.unlock(p.passphraseFile().map(Passphrase::read));
    }

    /** The verifier key of the transparency log's checkpoints. */
    public String logKey() {
        return logKey;
    }

    /** Integrates what the log's queue holds now (tests and benchmarks; the sequencer does it every interval). */
    public void integrateLog() {
        sequencer.drain();
    }

    /** The age recipients bundles may be encrypted to for this server ({@code serve --identity}); empty without one. */
    public List<String> recipients() {
        return encrypted.recipients();
    }

    @Override
    public void close() {
        app.stop();
        events.info("stop", Map.of());
        sequencer.close();
        verification.close();
        encrypted.close();
        blobs.close();
        db.close();
    }

    private static Map<String, String> securityHeaders() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Security-Policy", CSP);
        h.put("X-Content-Type-Options", "nosniff");
        h.put("X-Frame-Options", "DENY");
        h.put("Referrer-Policy", "no-referrer");
        h.put("Cross-Origin-Opener-Policy", "same-origin");
        h.put("Cross-Origin-Resource-Policy", "same-origin");
        h.put("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        return Collections.unmodifiableMap(h);
    }

    /** Deletes leftovers of uploads cut off by a killed server: files not changed for {@code age}. */
    static void removeStaleUploads(Path incoming, Duration age) throws IOException {
        FileTime before = FileTime.from(Instant.now().minus(age));
        try (Stream<Path> files = Files.list(incoming)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                BasicFileAttributes a = Files.readAttributes(f,
                        BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isRegularFile() && a.lastModifiedTime().compareTo(before) < 0) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static void headers(Context ctx) {
        SECURITY_HEADERS.forEach(ctx::header);
        if (ctx.path().startsWith("/api/")) {
            ctx.header("Cache-Control", "no-store");
        }
    }

    /**
     * Readiness: 200 when the database answers and a blob can be written (an upload in the incoming folder, and
     * in a bucket an object written, read back and deleted), else 503 naming which does not
     * (no error text: the answer is public). The log's state is reported, but a log that is behind (a
     * witness or time-stamp authority away) does not make the server unready: intake goes on.
     */
    private static void ready(Context ctx, Database db, FileBlobStore folder, BlobStore blobs, LogSequencer sequencer) {
        boolean database;
        try {
            database = db.inTransaction(c -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                    return rs.next();
                }
            });
        } catch (RuntimeException e) {
            database = false;
        }
        boolean stored;
        try {
            folder.probe();
            if (blobs != folder) {
                blobs.probe();
            }
            stored = true;
        } catch (IOException | RuntimeException e) {
            stored = false;
        }
        ctx.status(database && stored ? 200 : 503).contentType("application/json").result("{\"database\":\""
                + (database ? "ok" : "failing") + "\",\"blobs\":\"" + (stored ? "ok" : "failing") + "\",\"log\":\""
                + (sequencer.lastFailure().isPresent() ? "behind" : "ok") + "\"}\n");
    }

    /** Status codes the framework sets itself (no route, wrong method, body too large) as problems too. */
    private static void frameworkError(Context ctx) {
        if (ctx.statusCode() == 413) {
            Upload.drainRefused(ctx); // a text body over its bound, refused unread: read it so the client sees the answer
        }
        String type = ctx.res().getContentType();
        if (type != null && type.startsWith(Problems.CONTENT_TYPE)) {
            return;
        }
        Problems.respond(ctx, Problems.document(Problems.ofStatus(ctx.statusCode()),
                Problems.ofStatus(ctx.statusCode()).title(), ctx.path()));
    }
}
