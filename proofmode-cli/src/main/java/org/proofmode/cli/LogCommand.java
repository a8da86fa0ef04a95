// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.proofmode.LogMonitoring;
import org.proofmode.ProofMode;
import org.proofmode.Receipts;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.WitnessServer;
import org.proofmode.timestamp.rfc3161.TokenVerifier;
import org.proofmode.tlog.LogMonitor;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.TlogProof;
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Trust;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode log}: an evidence server's transparency log from outside: monitor, witness, keep receipts. */
@Command(name = "log", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {"An evidence server's transparency log, from outside: watch it trusting nothing but its key (monitor), "
            + "cosign it as a witness (witness), keep its receipts beside your proofs (keep).", ""},
        subcommands = {LogCommand.Monitor.class, LogCommand.WitnessCommand.class, LogCommand.Keep.class},
        footer = {"", "Examples:", "  proofmode log monitor https://evidence.example.org --log-key desk-log.key",
            "  proofmode log witness --follow desk-log.key --port 8090",
            "  proofmode log keep receipt.tlog       keep a server's receipt beside the proof it names; export and verify use it",
            "", ExitCodes.HELP_TABLE})
final class LogCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing subcommand: monitor, witness or keep");
    }

    /** {@code log monitor URL --log-key KEY}. */
    @Command(name = "monitor", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Fetch the log's signed checkpoint (URL/log/checkpoint), rebuild its tree from its tiles, check "
                + "that it is the tree the log key signed, that it extends the checkpoint this home saw last time (a "
                + "consistency proof), and that every entry added since is the leaf the tree holds. The checkpoint is then "
                + "kept in PROOFMODE_HOME/log-monitor/ for the next run: run it from a timer.",
                "",
                "A log that shrank, forked (rewrote its history) or changed an entry exits 3 and prints both checkpoints, "
                + "the one seen before and the one served now: evidence to publish. The one seen before stays kept.",
                "",
                "When the server time-stamps its checkpoints (serve --log-tsa), the current one's RFC 3161 token "
                + "(URL/log/timestamp/SIZE) is checked too: it must cover the checkpoint's text, and is reported with its "
                + "time and whether its authority chains to a trusted root (--tsa-trust, PROOFMODE_HOME/tsa-roots/); a token "
                + "that covers something else exits 3.", ""})
    static final class Monitor implements Callable<Integer> {
        @ParentCommand
        LogCommand parent;

        @Parameters(paramLabel = "URL", description = "The evidence server's base URL (its log is under URL/log/).")
        String url;

        @Option(names = "--log-key", required = true, paramLabel = "KEY",
                description = "The log's verifier key (origin+hash+base64, as 'proofmode server log-key' prints it) or a file holding it.")
        String key;

        @Option(names = "--tsa-trust", paramLabel = "CA.pem", description = "Trust this time-stamp root (repeatable), besides "
                + "PROOFMODE_HOME/tsa-roots/*.pem.")
        List<Path> tsaTrust = new ArrayList<>();

        @Mixin
        ProxyOptions proxy;

        @Override
        public Integer call() throws IOException {
            CliContext ctx = parent.root.ctx;
            NoteKey k = Trust.logKey(key, ctx.resolve(Path.of(key)));
            URI base = LogMonitoring.logUrl(url);
            LogMonitoring.Outcome o = LogMonitoring.check(ctx.home(), new Http(Http.Timeouts.DEFAULT,
                    proxy.choose(parent.root.proofMode().settings())), base, k, tsaTrust);
            LogMonitor.Result r = o.result();
            String origin = SafeText.escape(k.name());
            if (o.badTimestamp()) {
                ctx.err().println("proofmode: " + origin + ": the time-stamp of the checkpoint is invalid: "
                        + SafeText.escape(o.anchored().orElseThrow().message()));
                return ExitCodes.INVALID;
            }
            if (r.ok()) {
                ctx.out().println("proofmode: " + origin + ": " + r.detail());
                ctx.out().println("proofmode: " + origin + ": " + o.anchored().map(a -> "time-stamped " + a.genTime().map(Object::toString).orElse("")
                        + " by " + SafeText.escape(a.tsa().orElse("an unnamed authority"))
                        + (a.kind() == TokenVerifier.Kind.VALID ? " (trusted)" : " (authority not trusted: --tsa-trust)"))
                        .orElse("checkpoint not time-stamped"));
                return ExitCodes.OK;
            }
            ctx.err().println("proofmode: " + origin + ": " + r.outcome().name().toLowerCase(Locale.ROOT) + ": " + r.detail());
            ctx.out().println("checkpoint seen before (" + o.kept() + "):");
            print(ctx, o.before().orElse("(none)\n".getBytes(StandardCharsets.UTF_8)));
            ctx.out().println(System.lineSeparator() + "checkpoint served now:");
            print(ctx, r.currentNote());
            return ExitCodes.INVALID;
        }

        /** A note line by line, each escaped: what the server sent is untrusted. */
        private static void print(CliContext ctx, byte[] note) {
            new String(note, StandardCharsets.UTF_8).lines().forEach(l -> ctx.out().println(SafeText.escape(l)));
        }
    }

    /** {@code log witness}. */
    @Command(name = "witness", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Run a witness (C2SP tlog-witness): POST /add-checkpoint cosigns a followed log's checkpoint "
                + "when the log's key signed it and it extends the latest checkpoint this witness cosigned for that log "
                + "(a consistency proof), which it then keeps in PROOFMODE_HOME/witness/. A log that forks or shrinks is "
                + "refused (409, 422) and can never get this witness's cosignature for both histories.",
                "",
                "The cosignature key (Ed25519, C2SP tlog-cosignature v1) is made on first start and kept like the device "
                + "key in PROOFMODE_HOME/witness/key/; give its verifier key (--print-key) to the log's operator, for "
                + "'proofmode serve --witnesses', and to verifiers.", ""})
    static final class WitnessCommand implements Callable<Integer> {
        @ParentCommand
        LogCommand parent;

        @Option(names = "--follow", paramLabel = "KEY", description = "A log to witness (repeatable): its verifier key or a file holding it.")
        List<String> follow = new ArrayList<>();

        @Option(names = "--name", paramLabel = "NAME", description = "The witness's name for a new key, e.g. witness.example.org/w1 "
                + "(default: HOSTNAME/proofmode-witness).")
        String name;

        @Option(names = "--witness-passphrase-file", paramLabel = "FILE", description = "File whose first line is the witness "
                + "key's passphrase (default: one generated and kept owner-only beside the key).")
        Path passphraseFile;

        @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
        String bind;

        @Option(names = "--port", paramLabel = "PORT", defaultValue = "8090", description = "Port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
        int port;

        @Option(names = "--print-key", description = "Print the witness's verifier key (making the key first if needed) and exit.")
        boolean printKey;

        @Override
        public Integer call() throws InterruptedException {
            CliContext ctx = parent.root.ctx;
            if (port < 0 || port > 65_535) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "--port is 0 to 65535");
            }
            NoteKey pub = WitnessServer.key(ctx.home(), Optional.ofNullable(name), Optional.ofNullable(passphraseFile));
            if (printKey) {
                ctx.out().println(pub.verifierKey());
                return ExitCodes.OK;
            }
            if (follow.isEmpty()) {
                ctx.err().println("proofmode: name at least one log to witness: --follow KEY");
                return ExitCodes.MISSING_ARGUMENT;
            }
            List<NoteKey> logs = new ArrayList<>();
            for (String f : follow) {
                logs.add(Trust.logKey(f, ctx.resolve(Path.of(f))));
            }
            CountDownLatch stopped = new CountDownLatch(1);
            WitnessServer srv = WitnessServer.start(ctx.home(), logs, Optional.ofNullable(passphraseFile), bind, port);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                srv.close();
                stopped.countDown();
            }, "proofmode-witness-stop"));
            ctx.out().println("proofmode: witness " + pub.verifierKey() + " on http://" + (bind.contains(":") ? "[" + bind + "]" : bind)
                    + ":" + srv.port() + "/add-checkpoint for " + logs.size() + (logs.size() == 1 ? " log" : " logs") + "; stop with Ctrl-C");
            ctx.out().flush();
            stopped.await();
            return ExitCodes.OK;
        }
    }

    /** {@code log keep RECEIPT...}. */
    @Command(name = "keep", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Keep transparency-log receipts (from an evidence server's GET /api/v1/evidence/SHA256/receipt) "
                + "beside the stored proofs whose media their entry names, as PROOFMODE_HOME/proofs/<h>/<h>.tlog: 'export' "
                + "then puts them in share bundles and 'verify' checks them. Prints '<sha256>  kept  <receipt>' per proof, "
                + "and says whether a log key this home trusts (PROOFMODE_HOME/log-keys/) signed the receipt.",
                "",
                "A receipt kept already that a trusted log signed is replaced only by a receipt of the same log that a trusted "
                + "key signed too (a later checkpoint); a receipt of no trusted log, or of another log, is then not kept, and "
                + "log keep exits 59 saying which proof kept which.", ""},
            footer = {"", "Examples:", "  curl -H \"Authorization: Bearer $TOKEN\" -o receipt.tlog https://evidence.example.org/api/v1/evidence/SHA256/receipt",
                "  proofmode log keep receipt.tlog", "", ExitCodes.HELP_TABLE})
    static final class Keep implements Callable<Integer> {
        @ParentCommand
        LogCommand parent;

        @Parameters(arity = "1..*", paramLabel = "RECEIPT", description = "Receipt files (C2SP tlog-proof carrying the entry).")
        List<Path> receipts;

        @Mixin
        UnlockOptions unlock;

        @Override
        public Integer call() throws IOException {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = StoreAccess.reading(ctx, parent.root.proofMode(), unlock.passphraseFile);
            List<NoteKey> trusted = Trust.logKeysIn(pm.home());
            int kept = 0;
            int refused = 0;
            for (Path file : receipts) {
                Receipts.Result r = Receipts.keep(pm, file.toString(), InputFiles.read(file, TlogProof.MAX_BYTES, "receipt"), trusted);
                for (Receipts.Item i : r.items()) {
                    if (i.refused().isPresent()) {
                        ctx.err().println("proofmode: " + i.sha256() + ": not kept from " + SafeText.escape(file.toString()) + ": " + i.refused().get());
                        refused++;
                    } else {
                        ctx.out().println(i.sha256() + "  kept  " + SafeText.escape(file.toString()));
                        kept++;
                    }
                }
                if (r.check().outcome() == TlogProof.Outcome.UNTRUSTED) {
                    ctx.err().println("proofmode: " + SafeText.escape(file.toString()) + ": " + SafeText.escape(r.check().detail())
                            + " (trust the log with a file in " + Home.LOG_KEYS.in(pm.home()) + ")");
                }
            }
            if (refused > 0) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, refused + (refused == 1 ? " proof keeps its receipt" : " proofs keep their receipts")
                        + " from a trusted log, which a receipt that is not from that log does not replace (see above)");
            }
            if (kept == 0) {
                throw new ProofModeException(Failure.INPUT_MISSING, "no stored proof of the media these receipts name");
            }
            return ExitCodes.OK;
        }
    }
}
