// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.server.LogKey;
import org.proofmode.server.LogPolicy;
import org.proofmode.server.http.EncryptedUploads;
import org.proofmode.server.store.Database;
import org.proofmode.server.store.TokenScope;
import org.proofmode.server.store.TokenStore;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode server}: administration of the evidence server. */
@Command(name = "server", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Administer the evidence server ('proofmode serve'): its upload tokens, its transparency-log key and "
            + "the age recipient of its identity.", ""},
        subcommands = {ServerCommand.Token.class, ServerCommand.ShowLogKey.class, ServerCommand.ShowRecipient.class},
        footer = {"", "Examples:", "  proofmode server token create desk-anna    prints the token once",
            "  proofmode server log-key > desk-log.key     the key verifiers trust receipts with",
            "  proofmode server recipient --identity desk.key   the age1… the field encrypts bundles to",
            "  proofmode server token list", "  proofmode server token revoke 1f2e3d4c", "", ExitCodes.HELP_TABLE})
final class ServerCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing subcommand: token, log-key or recipient");
    }

    /** {@code server recipient --identity FILE}. */
    @Command(name = "recipient", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Print the age recipient (age1…) of the identity file 'proofmode serve --identity FILE' would use, "
                + "as GET /api/v1/recipient gives it: what the field passes to 'proofmode export --encrypt-to'. The file "
                + "is checked as serve checks it (an age identity, readable by its owner only). Make one with age-keygen.", ""})
    static final class ShowRecipient implements Callable<Integer> {
        @ParentCommand
        ServerCommand parent;

        @Option(names = "--identity", paramLabel = "FILE", required = true, description = "The server's age identity file.")
        Path identity;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            EncryptedUploads.recipientsOf(ctx.resolve(identity)).forEach(ctx.out()::println);
            return ExitCodes.OK;
        }
    }

    /** {@code server log-key}. */
    @Command(name = "log-key", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Print the verifier key of the server's transparency log (origin+hash+base64), as "
                + "GET /api/v1/log/key gives it: what verifiers pass to 'proofmode verify --log-key' and monitors to "
                + "'proofmode log monitor'. Makes the log key first if the server has none yet.", ""})
    static final class ShowLogKey implements Callable<Integer> {
        @ParentCommand
        ServerCommand parent;

        @Mixin
        LogKeyOptions options;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            LogPolicy p = options.policy();
            LogKey key = LogKey.forLog(ctx.home());
            ctx.out().println(key.publicKey().orElseGet(() -> key.create(p::originFor,
                    p.passphraseFile().map(Passphrase::read))).verifierKey());
            return ExitCodes.OK;
        }
    }

    /** {@code server token}. */
    @Command(name = "token", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Create, list and revoke tokens. A token is shown once, when it is created; "
                + "the server keeps only its SHA-256. Clients send it as 'Authorization: Bearer TOKEN'.",
                "", "Each token has a scope: upload (the default: a field device's token; it sends evidence and "
                    + "notarizations and reads back only what it sent), read (a desk's token; it reads, searches and "
                    + "downloads everything and sends nothing) or admin (both). Tokens made before scopes may do "
                    + "everything; 'token list' marks them: replace them with scoped ones.", ""},
            subcommands = {Create.class, Revoke.class, ListTokens.class})
    static final class Token implements Callable<Integer> {
        @ParentCommand
        ServerCommand parent;

        @Override
        public Integer call() {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing subcommand: create, list or revoke");
        }

        Database open(ServerOptions options) {
            return Database.open(options.config(parent.root.ctx).effectiveJdbcUrl());
        }
    }

    /** {@code server token create NAME}. */
    @Command(name = "create", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
            description = {"Create a token for NAME; print it once on stdout, its id and scope on stderr.", "",
                "The default scope is upload, the least a field device needs: if the device is seized, its token "
                    + "reads back only what that device sent, never the rest of the archive.", ""},
            footer = {"", "Examples:", "  proofmode server token create field-anna              an upload token",
                "  proofmode server token create desk-ben --scope read    reads everything, sends nothing",
                "", ExitCodes.HELP_TABLE})
    static final class Create implements Callable<Integer> {
        @ParentCommand
        Token token;

        @Mixin
        ServerOptions options;

        @Parameters(paramLabel = "NAME", description = "Who the token is for, e.g. desk-anna (named in the custody log).")
        String name;

        @Option(names = "--scope", paramLabel = "upload|read|admin", description = "What the token may do: upload (default: "
                + "send, and read back only what it sent), read (read everything, send nothing) or admin (both).")
        String scope = "upload";

        @Override
        public Integer call() {
            TokenScope s = TokenScope.parse(scope);
            try (Database db = token.open(options)) {
                TokenStore.NewToken t = new TokenStore(db).create(name, s);
                token.parent.root.ctx.out().println(t.secret());
                token.parent.root.ctx.err().println("proofmode: token " + t.info().id() + " for " + SafeText.escape(t.info().name())
                        + " (scope " + s.spelled() + ") created; it is shown only now");
                return ExitCodes.OK;
            }
        }
    }

    /** {@code server token revoke ID}. */
    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by its id (see 'server token list').")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand
        Token token;

        @Mixin
        ServerOptions options;

        @Parameters(paramLabel = "ID", description = "The token's id.")
        String id;

        @Override
        public Integer call() {
            try (Database db = token.open(options)) {
                if (!new TokenStore(db).revoke(id)) {
                    throw new ProofModeException(Failure.INPUT_MISSING, "no live token with id " + id);
                }
                token.parent.root.ctx.out().println("revoked " + id);
                return ExitCodes.OK;
            }
        }
    }

    /** {@code server token list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List tokens: id, name, scope, created, revoked; "
            + "a token made before scopes is marked 'unscoped' and warned about on stderr.")
    static final class ListTokens implements Callable<Integer> {
        @ParentCommand
        Token token;

        @Mixin
        ServerOptions options;

        @Override
        public Integer call() {
            try (Database db = token.open(options)) {
                int unscoped = 0;
                for (TokenStore.TokenInfo t : new TokenStore(db).list()) {
                    token.parent.root.ctx.out().println(t.id() + "  " + SafeText.escape(t.name()) + "  "
                            + t.scope().map(TokenScope::spelled).orElse("unscoped") + "  created " + t.createdAt()
                            + t.revokedAt().map(r -> "  revoked " + r).orElse(""));
                    unscoped += t.scope().isEmpty() && t.revokedAt().isEmpty() ? 1 : 0;
                }
                if (unscoped > 0) {
                    token.parent.root.ctx.err().println("proofmode: warning: " + unscoped + " live token(s) made before scopes "
                            + "may send and read everything; replace each with 'server token create NAME --scope upload' "
                            + "(or read for a desk) and revoke it");
                }
                return ExitCodes.OK;
            }
        }
    }
}
