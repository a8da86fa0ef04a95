// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import io.javalin.Javalin;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.tlog.Witness;

/**
 * A witness as an HTTP service (C2SP {@code tlog-witness}): {@code POST /add-checkpoint} and nothing
 * else. Requests are small (a checkpoint and at most 63 hashes) and answered from the witness's own
 * record; the security headers are the server's.
 */
public final class WitnessServer implements AutoCloseable {
    /** Largest request body: a signed checkpoint and its proof. */
    static final long MAX_REQUEST = 64 * 1024;

    private final Javalin app;

    private WitnessServer(Javalin app) {
        this.app = app;
    }

    /**
     * Starts listening.
     *
     * @throws ProofModeException with {@link Failure#IO} if the address cannot be used
     */
    public static WitnessServer start(Witness witness, String bind, int port) {
        Objects.requireNonNull(witness, "witness");
        try {
            Javalin app = Javalin.create(c -> {
                c.startup.showJavalinBanner = false;
                c.jetty.host = bind;
                c.jetty.port = port;
                c.http.maxRequestSize = MAX_REQUEST;
                c.routes.before(ctx -> ProofServer.SECURITY_HEADERS.forEach(ctx::header));
                c.routes.post("/add-checkpoint", ctx -> {
                    Witness.Answer a = witness.addCheckpoint(ctx.bodyAsBytes());
                    ctx.status(a.status()).contentType(a.contentType()).result(a.body());
                });
            });
            app.start();
            return new WitnessServer(app);
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.IO, "cannot start the witness on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
