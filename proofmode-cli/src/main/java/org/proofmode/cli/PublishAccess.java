// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.proofmode.ProofMode;
import org.proofmode.Publishers;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.util.InputFiles;

/**
 * What the commands that publish share on the command line: the home's publisher, with a sealed token
 * unlocked as any sealed read is ({@code publish}, {@code publish sync}, {@code watch --publish}), the
 * token read for {@code publish login}, and the line printed per item.
 */
final class PublishAccess {
    /** The outcome of one item. */
    enum Outcome { PUBLISHED, QUEUED, FAILED }

    private final CliContext ctx;
    private final boolean json;
    private int lastFailure = ExitCodes.OK;

    /** Prints items' lines to {@code ctx}'s writers, as JSON lines if asked. */
    PublishAccess(CliContext ctx, boolean json) {
        this.ctx = ctx;
        this.json = json;
    }

    /**
     * The client of the server set in the home, with its token, through the chosen proxy; a token sealed
     * to a store this home cannot read now is opened with the store's identity, unlocked as any sealed read
     * is (the agent, the passphrase from {@code passphraseFile}, {@code PROOFMODE_PASSPHRASE} or a prompt).
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} when no server or token is set, saying
     *     how; with {@link Failure#KEY_LOCKED} if the identity cannot be unlocked
     */
    static Publisher publisher(CliContext ctx, ProofMode pm, Settings settings, ProxyOptions proxy, Path passphraseFile) {
        ProofMode reader = Publishers.tokenNeedsIdentity(pm) ? StoreAccess.reading(ctx, pm, passphraseFile) : pm;
        return Publishers.configured(pm, reader, settings, proxy.choose(settings));
    }

    /** The upload token: from a file, typed on the terminal, or the first line of standard input. */
    static char[] readToken(CliContext ctx, Path tokenFile) throws IOException {
        if (tokenFile != null) {
            byte[] b = InputFiles.read(ctx.resolve(tokenFile), 4096, "token file");
            return new String(b, StandardCharsets.UTF_8).toCharArray();
        }
        if (ctx.terminal().interactive()) {
            Optional<char[]> typed = ctx.terminal().readSecret("upload token: ");
            if (typed.isPresent()) {
                return typed.get();
            }
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = in.readLine();
        if (line == null || line.isBlank()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "no token on standard input: echo \"$TOKEN\" | proofmode publish login URL");
        }
        return line.toCharArray();
    }

    /** The exit code of the last item that failed. */
    int lastFailure() {
        return lastFailure;
    }

    /** Sends one proof, or queues it; prints its line. What retrying cannot fix is said on stderr. */
    Outcome send(String sha256, Supplier<Publishing.Result> attempt) {
        try {
            Publishing.Result r = attempt.get();
            if (json) {
                ObjectNode n = JsonOut.object().put("sha256", r.sha256()).put("what", r.what().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .put("outcome", r.queued().isPresent() ? "queued" : r.what() == Publisher.What.NOTARIZE_ONLY ? "notarized" : "published");
                r.link().ifPresent(l -> n.put("link", l.toString()));
                r.queued().ifPresent(q -> n.put("queued", q));
                JsonOut.println(ctx.out(), n);
            } else {
                ctx.out().println(r.line());
            }
            ctx.out().flush();
            return r.queued().isPresent() ? Outcome.QUEUED : Outcome.PUBLISHED;
        } catch (ProofModeException e) {
            failed(sha256, sha256 + ": ", e);
            return Outcome.FAILED;
        }
    }

    /** Prints an item that could not be tried ({@code label} before the message on stderr). */
    void failed(String sha256, String label, ProofModeException e) {
        if (json) {
            JsonOut.println(ctx.out(), JsonOut.error("sha256", sha256, e));
        } else {
            ctx.err().println("proofmode: " + label + e.getMessage());
        }
        lastFailure = ExitCodes.of(e.failure());
    }
}
