// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.proofmode.ProofMode;
import org.proofmode.cli.print.QueueSummary;
import org.proofmode.context.SettingKey;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.PublishToken;
import org.proofmode.publish.Publishing;
import org.proofmode.publish.QueuedPublish;
import org.proofmode.util.Hex;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
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
            "  proofmode settings set publish.proxy socks5h://127.0.0.1:9050   always over Tor",
            "", ExitCodes.HELP_TABLE})
final class PublishCommand implements Callable<Integer> {
    /** The token file, under the home. */
    static final String TOKEN = PublishToken.CLEAR;


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

    @Parameters(paramLabel = "HASH|PATH", arity = "0..*", description = "Proved media files, or their SHA-256.")
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
        Publisher publisher = PublishAccess.publisher(ctx, pm, settings, proxy);
        Publisher.What w = what == null ? Publisher.What.parse(settings.publishMode())
                : what.notarizeOnly ? Publisher.What.NOTARIZE_ONLY : what.proofOnly ? Publisher.What.PROOF_ONLY : Publisher.What.WITH_MEDIA;
        int exit = ExitCodes.OK;
        boolean queued = false;
        for (String arg : proofs) {
            ProofMode.StoredProof p;
            try {
                p = pm.find(Hex.isSha256(arg) && !Files.exists(ctx.resolve(Path.of(arg))) ? arg : ctx.resolve(Path.of(arg)).toString());
            } catch (ProofModeException e) {
                if (json) {
                    JsonOut.println(ctx.out(), JsonOut.error("sha256", arg, e));
                } else {
                    ctx.err().println("proofmode: " + e.getMessage());
                }
                exit = firstError(exit, ExitCodes.of(e.failure()));
                continue;
            }
            Publishing to = new Publishing(publisher, w);
            ProofMode.StoredProof found = p;
            Outcome o = send(ctx, p.sha256(), () -> pm.publish(to, found), json);
            queued |= o == Outcome.QUEUED;
            if (o == Outcome.FAILED) {
                exit = firstError(exit, lastFailure);
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

    private enum Outcome { PUBLISHED, QUEUED, FAILED }

    private int lastFailure = ExitCodes.OK;

    /** Sends one proof, or queues it; prints its line. What retrying cannot fix is said on stderr. */
    private Outcome send(CliContext ctx, String sha256, Supplier<Publishing.Result> attempt, boolean asJson) {
        try {
            Publishing.Result r = attempt.get();
            if (asJson) {
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
            if (asJson) {
                JsonOut.println(ctx.out(), JsonOut.error("sha256", sha256, e));
            } else {
                ctx.err().println("proofmode: " + sha256 + ": " + e.getMessage());
            }
            lastFailure = ExitCodes.of(e.failure());
            return Outcome.FAILED;
        }
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
            String server = SettingKey.PUBLISH_SERVER.canonical(url);
            if (server.isEmpty()) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "give the server's URL");
            }
            URI u = URI.create(server);
            String host = u.getHost();
            boolean local = host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]") || host.equals("::1");
            if (u.getScheme().equals("http") && !host.endsWith(".onion") && !local) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, SafeText.escape(server) + ": use https:// (plain http is "
                        + "accepted only for an .onion address, which Tor authenticates, or this machine)");
            }
            char[] token = readToken(ctx);
            try {
                String t = new String(token).strip();
                if (!t.matches("[A-Za-z0-9_\\-.]{8,512}")) {
                    throw new ProofModeException(Failure.BAD_ARGUMENT, "that is not an upload token (expected letters, digits, '_', '-' "
                            + "and '.', as 'proofmode server token create' prints it)");
                }
                Publisher publisher = PublishAccess.client(pm, u, t, proxy.choose(pm.settings()));
                String checked;
                try {
                    Publisher.TokenCheck said = publisher.check();
                    // the name and scope are the server's words: a hostile server's escapes are shown, not run
                    checked = "the server takes the token" + (said.name().isEmpty() ? "" : " '" + SafeText.escape(said.name()) + "'")
                            + (said.scope().isEmpty() ? "" : ", scope " + SafeText.escape(said.scope()));
                } catch (ProofModeException e) {
                    if (e.failure() != Failure.SERVICE_UNREACHABLE) {
                        throw e;
                    }
                    checked = "not checked: " + e.getMessage();
                }
                char[] clean = t.toCharArray();
                Path file;
                try {
                    file = PublishToken.keep(pm.home(), clean, pm.store().queueSealing());
                } finally {
                    Arrays.fill(clean, '\0');
                }
                pm.settingsFile().set(SettingKey.PUBLISH_SERVER, server);
                ctx.out().println("proofmode: publishing to " + server + " (" + checked + "); token kept in " + file
                        + (PublishToken.isSealed(pm.home()) ? " (sealed to the encrypted store)" : ""));
                return ExitCodes.OK;
            } finally {
                Arrays.fill(token, '\0');
            }
        }

        private char[] readToken(CliContext ctx) throws IOException {
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
            Publisher publisher = items.isEmpty() ? null : PublishAccess.publisher(ctx, pm, pm.settings(), proxy);
            for (QueuedPublish q : items) {
                if (!now && !q.due(t)) {
                    continue;
                }
                Publishing to = new Publishing(publisher.forQueued(q, proxy.given()), q.what());
                Outcome o = parent.send(ctx, q.sha256(), () -> pm.publish(to, q.sha256()), json);
                stillQueued |= o == Outcome.QUEUED;
                if (o == Outcome.FAILED) {
                    exit = firstError(exit, parent.lastFailure);
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
