// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.Publishers;
import org.proofmode.cli.print.QueueSummary;
import org.proofmode.context.Settings;
import org.proofmode.failure.ProofModeException;
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.publish.QueuedPublish;
import org.proofmode.util.Hex;
import org.proofmode.verify.Verifier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code proofmode publish}: send stored proofs to an evidence server, over Tor if asked; queue what cannot go now. */
@Command(name = "publish", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Send stored proofs to an evidence server ('proofmode serve', yours or your desk's): each proof's share bundle, "
                + "with the media (the default, setting publish.mode) or without it, or only its notarization text.",
            "",
            "Prints '<sha256>  published  <permalink>' per proof, or '<sha256>  queued  <why>' when the server or the "
                + "proxy cannot be reached now: the item waits in PROOFMODE_HOME/publish-queue/ and 'publish sync' sends it "
                + "later (backoff 1 minute, doubling, at most 1 hour). Publishing twice is harmless: the server keeps one copy "
                + "and answers with its permalink. A token the server refuses, or a bundle it will not take, is an error, "
                + "not queued.",
            "",
            "Set the server once: 'proofmode publish login URL' reads the upload token from standard input (never from the "
                + "command line) and keeps it owner-only in PROOFMODE_HOME/publish/token, or, when the store is encrypted, "
                + "sealed to it in publish/token.age (publishing then unlocks the store's identity, as any sealed read does). "
                + "With --tor, --proxy or the setting "
                + "publish.proxy every connection goes through that SOCKS5 proxy, which resolves host names (an .onion "
                + "server works; no DNS query leaves the machine); if the proxy cannot be reached, nothing goes direct.",
            ""},
        subcommands = {PublishCommand.Login.class, PublishCommand.Sync.class},
        footer = {"", "Examples:",
            "  echo \"$TOKEN\" | proofmode publish login https://desk.example.org",
            "  proofmode publish IMG_0001.jpg                      send the proof with the photo",
            "  proofmode publish --json IMG_0001.jpg               one JSON line per item, for scripts",
            "  proofmode publish --tor --proof-only 0b8d8b5f1504...6647351   only the proof, over Tor",
            "  proofmode publish --notarize-only IMG_0001.jpg      only the hash, signer and time, now; the media later",
            "  proofmode publish sync                              send what was queued",
            "  proofmode publish collection-example.org-20260101T120000Z   a collection, whole",
            "  proofmode settings set publish.proxy socks5h://127.0.0.1:9050   always over Tor",
            "", ExitCodes.HELP_TABLE})
final class PublishCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    What what;

    static final class What {
        @Option(names = "--with-media", description = "Send the share bundle with the media (default: setting publish.mode).")
        boolean withMedia;

        @Option(names = "--proof-only", description = "Send the share bundle without the media.")
        boolean proofOnly;

        @Option(names = "--notarize-only", description = "Send only the notarization text (the media's SHA-256, the signer, the "
                + "time): the server links it to the bundle when that arrives, and its custody log shows both times.")
        boolean notarizeOnly;
    }

    @Mixin
    ProxyOptions proxy;

    @Option(names = "--require-published", description = "Exit 47 if an item could not be sent now (it stays queued).")
    boolean requirePublished;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    static final String JSON_HELP = "Print one JSON object per item (JSON lines): {\"sha256\", \"what\", \"outcome\": \"published\"|"
            + "\"notarized\"|\"queued\", \"link\" or \"queued\": why}; an item that failed is {\"sha256\", \"error\": {\"exitCode\", \"message\"}}.";

    @Parameters(paramLabel = "HASH|PATH", arity = "0..*", description = "Proved media files, or their SHA-256; or collection "
            + "folders (proofmode collect), each sent whole as one zip with its media's proofs, never queued (exit 47 to retry).")
    List<String> proofs = new ArrayList<>();

    @Override
    public Integer call() {
        if (proofs.isEmpty()) {
            throw new picocli.CommandLine.MissingParameterException(spec.commandLine(),
                    spec.positionalParameters().get(0), "Missing required parameter: 'HASH|PATH' (or a subcommand: login, sync)");
        }
        CliContext ctx = root.ctx;
        ProofMode pm = StoreAccess.reading(ctx, root.proofMode(), unlock.passphraseFile);
        Settings settings = pm.settings();
        Publishing to = new Publishing(PublishAccess.publisher(ctx, pm, settings, proxy, null), what == null
                ? Publisher.What.parse(settings.publishMode())
                : what.notarizeOnly ? Publisher.What.NOTARIZE_ONLY : what.proofOnly ? Publisher.What.PROOF_ONLY : Publisher.What.WITH_MEDIA);
        PublishAccess lines = new PublishAccess(ctx, json);
        int exit = ExitCodes.OK;
        boolean queued = false;
        for (String arg : proofs) {
            Path folder = ctx.resolve(Path.of(arg));
            if (Verifier.isCollection(folder)) {
                // a collection goes whole (CollectionArchive), whatever --proof-only or --notarize-only say of proofs
                if (lines.send(arg, () -> pm.publishCollection(to, folder)) == PublishAccess.Outcome.FAILED) {
                    exit = firstError(exit, lines.lastFailure());
                }
                continue;
            }
            ProofMode.StoredProof p;
            try {
                p = pm.find(Hex.isSha256(arg) && !Files.exists(ctx.resolve(Path.of(arg))) ? arg : ctx.resolve(Path.of(arg)).toString());
            } catch (ProofModeException e) {
                lines.failed(arg, "", e);
                exit = firstError(exit, ExitCodes.of(e.failure()));
                continue;
            }
            ProofMode.StoredProof found = p;
            PublishAccess.Outcome o = lines.send(p.sha256(), () -> pm.publish(to, found));
            queued |= o == PublishAccess.Outcome.QUEUED;
            if (o == PublishAccess.Outcome.FAILED) {
                exit = firstError(exit, lines.lastFailure());
            }
        }
        if (queued) {
            ctx.err().println("proofmode: some items could not be sent now and are queued (run 'proofmode publish sync' later)");
            if (requirePublished) {
                exit = firstError(exit, ExitCodes.TIMESTAMP_UNREACHABLE);
            }
        }
        return exit;
    }

    private static int firstError(int current, int next) {
        return current == ExitCodes.OK ? next : current;
    }

    /** {@code proofmode publish login URL}: set the server and keep its upload token. */
    @Command(name = "login", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
            description = {"Set the evidence server 'publish' sends to, and keep its upload token (from 'proofmode server token "
                + "create' on the server) owner-only in PROOFMODE_HOME/publish/token; in a home whose store is encrypted, sealed "
                + "to the store in publish/token.age, which needs no passphrase now and the store's identity to publish.",
                "", "The token is read from standard input (a prompt on a terminal), or from --token-file; never from the "
                    + "command line, where other users' process lists would show it. The server is asked once whether it "
                    + "takes the token; when it cannot be reached now, the token is kept anyway and 'publish' will tell.", ""},
            footer = {"", "Examples:", "  echo \"$TOKEN\" | proofmode publish login https://desk.example.org",
                "  proofmode publish login --tor http://abcdef...xyz.onion", "", ExitCodes.HELP_TABLE})
    static final class Login implements Callable<Integer> {
        @ParentCommand
        PublishCommand parent;

        @Parameters(paramLabel = "URL", description = "The server's base URL: https://HOST[:PORT][/PATH], or http:// for "
                + "an .onion address or this machine.")
        String url;

        @Option(names = "--token-file", paramLabel = "FILE", description = "Read the token from this file instead of standard input.")
        Path tokenFile;

        @Mixin
        ProxyOptions proxy;

        @Override
        public Integer call() throws IOException {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = parent.root.proofMode();
            char[] token = PublishAccess.readToken(ctx, tokenFile);
            try {
                Publishers.LoggedIn in = Publishers.login(pm, url, token, proxy.choose(pm.settings()));
                ctx.out().println("proofmode: publishing to " + in.server() + " (" + in.checked() + "); token kept in " + in.file()
                        + (in.sealed() ? " (sealed to the encrypted store)" : ""));
                return ExitCodes.OK;
            } finally {
                Arrays.fill(token, '\0');
            }
        }
    }

    /** {@code proofmode publish sync}: send what was queued. */
    @Command(name = "sync", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
            description = {"Send the items queued while the server or the proxy could not be reached.",
                "", "Items are retried with backoff (1 minute, doubling, at most 1 hour); --now retries every one. Prints a "
                    + "line per item tried, then how many are still queued.", ""},
            footer = {"", "Examples:", "  proofmode publish sync", "  proofmode publish sync --now --tor --require-published",
                "", ExitCodes.HELP_TABLE})
    static final class Sync implements Callable<Integer> {
        @ParentCommand
        PublishCommand parent;

        @Option(names = "--now", description = "Retry every queued item, even those waiting out their backoff.")
        boolean now;

        @Option(names = "--require-published", description = "Exit 47 if an item still could not be sent.")
        boolean requirePublished;

        @Option(names = "--json", description = JSON_HELP)
        boolean json;

        @Mixin
        UnlockOptions unlock;

        @Mixin
        ProxyOptions proxy;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = StoreAccess.reading(ctx, parent.root.proofMode(), unlock.passphraseFile);
            PublishQueue queue = pm.publishQueue();
            List<QueuedPublish> items = queue.list();
            Instant t = Instant.now();
            int exit = ExitCodes.OK;
            boolean stillQueued = false;
            Publisher publisher = items.isEmpty() ? null : PublishAccess.publisher(ctx, pm, pm.settings(), proxy, null);
            PublishAccess lines = new PublishAccess(ctx, json);
            for (QueuedPublish q : items) {
                if (!now && !q.due(t)) {
                    continue;
                }
                Publishing to = new Publishing(publisher.forQueued(q, proxy.given()), q.what());
                PublishAccess.Outcome o = lines.send(q.sha256(), () -> pm.publish(to, q.sha256()));
                stillQueued |= o == PublishAccess.Outcome.QUEUED;
                if (o == PublishAccess.Outcome.FAILED) {
                    exit = firstError(exit, lines.lastFailure());
                }
            }
            QueueSummary.print(ctx.err(), "publish queue", "item(s)", queue.list().stream().map(QueuedPublish::nextTry).toList());
            if (stillQueued && requirePublished) {
                exit = firstError(exit, ExitCodes.TIMESTAMP_UNREACHABLE);
            }
            return exit;
        }
    }
}
