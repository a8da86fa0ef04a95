// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.proofmode.ProofMode;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofSet;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.media.Digests;
import org.proofmode.server.LogKey;
import org.proofmode.server.LogPolicy;
import org.proofmode.server.WitnessServer;
import org.proofmode.timestamp.rfc3161.TokenVerifier;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.timestamp.rfc3161.TsaToken;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.LogMonitor;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.tlog.TlogProof;
import org.proofmode.tlog.Witness;
import org.proofmode.util.AtomicFiles;
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
            URI base;
            try {
                base = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "not a URL: " + SafeText.escape(url));
            }
            if (base.getScheme() == null || base.getHost() == null) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "not an http or https URL: " + SafeText.escape(url));
            }
            Path kept = ctx.home().resolve("log-monitor").resolve(
                    Digests.sha256Hex(k.verifierKey().getBytes(StandardCharsets.UTF_8)).substring(0, 16) + ".checkpoint");
            Optional<byte[]> before = Files.isRegularFile(kept)
                    ? Optional.of(InputFiles.read(kept, SignedNote.MAX_BYTES, "kept checkpoint")) : Optional.empty();
            List<X509Certificate> roots = new ArrayList<>(TrustedRoots.inHome(ctx.home()));
            for (Path t : tsaTrust) {
                roots.addAll(TrustedRoots.read(t));
            }
            Http http = new Http(Http.Timeouts.DEFAULT, proxy.choose(parent.root.proofMode().settings()));
            LogMonitor.Result r = new LogMonitor(http, base, k).check(before);
            String origin = SafeText.escape(k.name());
            if (r.ok()) {
                Optional<TokenVerifier.Result> anchored = anchored(http, base, r, roots);
                if (anchored.isPresent() && anchored.get().kind() == TokenVerifier.Kind.INVALID) {
                    ctx.err().println("proofmode: " + origin + ": the time-stamp of the checkpoint is invalid: "
                            + SafeText.escape(anchored.get().message()));
                    return ExitCodes.INVALID;
                }
                AtomicFiles.ownerOnlyDirectory(kept.getParent());
                AtomicFiles.write(kept, r.currentNote(), true, true);
                ctx.out().println("proofmode: " + origin + ": " + r.detail());
                ctx.out().println("proofmode: " + origin + ": " + anchored.map(a -> "time-stamped " + a.genTime().map(Object::toString).orElse("")
                        + " by " + SafeText.escape(a.tsa().orElse("an unnamed authority"))
                        + (a.kind() == TokenVerifier.Kind.VALID ? " (trusted)" : " (authority not trusted: --tsa-trust)"))
                        .orElse("checkpoint not time-stamped"));
                return ExitCodes.OK;
            }
            ctx.err().println("proofmode: " + origin + ": " + r.outcome().name().toLowerCase(Locale.ROOT) + ": " + r.detail());
            ctx.out().println("checkpoint seen before (" + kept + "):");
            print(ctx, before.orElse("(none)\n".getBytes(StandardCharsets.UTF_8)));
            ctx.out().println();
            ctx.out().println("checkpoint served now:");
            print(ctx, r.currentNote());
            return ExitCodes.INVALID;
        }

        /** The check of the current checkpoint's time-stamp, if the log serves one. */
        private static Optional<TokenVerifier.Result> anchored(Http http, URI base, LogMonitor.Result r, List<X509Certificate> roots) {
            long size = r.current().orElseThrow().size();
            String b = base.toString();
            Http.Response t = http.get(URI.create((b.endsWith("/") ? b : b + "/") + "log/timestamp/" + size), "application/timestamp-reply",
                    TsaToken.MAX_BYTES);
            if (t.status() == 404) {
                return Optional.empty();
            }
            if (t.status() != 200) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, base + ": log/timestamp/" + size + ": HTTP " + t.status());
            }
            byte[] text = SignedNote.text(new String(r.currentNote(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            return Optional.of(new TokenVerifier(roots).verify(t.body(), List.of(new TokenVerifier.Candidate("the checkpoint of "
                    + size + " entries", Optional.of(text), Digests.newSha256().digest(text)))));
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
            LogKey key = LogKey.forWitness(ctx.home());
            NoteKey pub = key.publicKey().orElseGet(() -> key.create(name != null ? name
                    : LogPolicy.hostName() + "/proofmode-witness", Optional.ofNullable(passphraseFile).map(Passphrase::read)));
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
            Witness witness = new Witness(key.unlock(Optional.ofNullable(passphraseFile).map(Passphrase::read)), logs,
                    ctx.home().resolve("witness").resolve("state"), Clock.systemUTC());
            CountDownLatch stopped = new CountDownLatch(1);
            WitnessServer srv = WitnessServer.start(witness, bind, port);
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
                byte[] data = InputFiles.read(file, TlogProof.MAX_BYTES, "receipt");
                TlogProof proof;
                LogEntry entry;
                try {
                    proof = TlogProof.parse(data);
                    entry = LogEntry.parse(proof.extra().orElseThrow(() -> new NoteFormatException("no entry (extra line)")));
                } catch (NoteFormatException e) {
                    throw new ProofModeException(Failure.BAD_DATA, file + ": not a receipt: " + e.getMessage());
                }
                TlogProof.Result r = proof.check(entry.leafHash(), trusted);
                if (r.outcome() == TlogProof.Outcome.INVALID) {
                    throw new ProofModeException(Failure.BAD_DATA, file + ": " + SafeText.escape(r.detail()));
                }
                for (String h : entry.media()) {
                    Optional<ProofSet> set = pm.store().set(h);
                    if (set.isEmpty()) {
                        continue;
                    }
                    Optional<String> why = set.get().read(h + ProofFiles.TLOG).flatMap(before -> keeps(before, data, r, trusted));
                    if (why.isPresent()) {
                        ctx.err().println("proofmode: " + h + ": not kept from " + SafeText.escape(file.toString()) + ": " + why.get());
                        refused++;
                        continue;
                    }
                    set.get().add(h + ProofFiles.TLOG, data, true);
                    ctx.out().println(h + "  kept  " + SafeText.escape(file.toString()));
                    kept++;
                }
                if (r.outcome() == TlogProof.Outcome.UNTRUSTED) {
                    ctx.err().println("proofmode: " + SafeText.escape(file.toString()) + ": " + SafeText.escape(r.detail())
                            + " (trust the log with a file in " + pm.home().resolve("log-keys") + ")");
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

        /**
         * Why the receipt kept already stays: one that verifies against a trusted log key is replaced only by one
         * of the same log that verifies too (a later checkpoint), never by one of no trusted log or of another log.
         */
        private static Optional<String> keeps(byte[] before, byte[] data, TlogProof.Result now, List<NoteKey> trusted) {
            Optional<String> origin;
            try {
                TlogProof kept = TlogProof.parse(before);
                LogEntry entry = LogEntry.parse(kept.extra().orElseThrow(() -> new NoteFormatException("no entry")));
                TlogProof.Result r = kept.check(entry.leafHash(), trusted);
                origin = r.outcome() == TlogProof.Outcome.VALID ? r.checkpoint().map(c -> c.origin()) : Optional.empty();
            } catch (NoteFormatException e) {
                return Optional.empty();
            }
            if (origin.isEmpty() || java.util.Arrays.equals(before, data)) {
                return Optional.empty();
            }
            String keptFrom = "the receipt kept already is signed by the trusted log " + SafeText.escape(origin.get());
            if (now.outcome() != TlogProof.Outcome.VALID) {
                return Optional.of(keptFrom + ", and this one by no trusted log");
            }
            String other = now.checkpoint().orElseThrow().origin();
            return other.equals(origin.get()) ? Optional.empty()
                    : Optional.of(keptFrom + ", and this one is of another log, " + SafeText.escape(other));
        }
    }
}
