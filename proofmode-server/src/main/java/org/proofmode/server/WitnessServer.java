// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import io.javalin.Javalin;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.Witness;
import org.proofmode.util.Home;

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

    /**
     * This home's witness key ({@code PROOFMODE_HOME/witness/key/}), made first if there is none.
     *
     * @param home the ProofMode home
     * @param name the name of a new key (default: {@code HOSTNAME/proofmode-witness})
     * @param passphraseFile where a new key's passphrase is (default: one generated and kept beside the key)
     * @return its verifier key
     */
    public static NoteKey key(Path home, Optional<String> name, Optional<Path> passphraseFile) {
        LogKey key = LogKey.forWitness(home);
        return key.publicKey().orElseGet(() -> key.create(name.orElseGet(() -> LogPolicy.hostName() + "/proofmode-witness"),
                passphraseFile.map(Passphrase::read)));
    }

    /**
     * Starts this home's witness of some logs, with its key (see {@link #key}) unlocked and its record of
     * what it cosigned in {@code PROOFMODE_HOME/witness/state}.
     *
     * @throws ProofModeException with {@link Failure#IO} if the address cannot be used, {@link Failure#KEY_LOCKED}
     *     if the key cannot be unlocked
     */
    public static WitnessServer start(Path home, List<NoteKey> logs, Optional<Path> passphraseFile, String bind, int port) {
        Witness witness = new Witness(LogKey.forWitness(home).unlock(passphraseFile.map(Passphrase::read)), logs,
                Home.WITNESS_STATE.in(home), Clock.systemUTC());
        return start(witness, bind, port);
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
