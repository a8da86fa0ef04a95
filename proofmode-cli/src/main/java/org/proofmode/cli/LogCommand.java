// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.tlog.LogMonitor;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Http;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode log}: watch an evidence server's transparency log from outside. */
@Command(name = "log", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Watch an evidence server's transparency log from outside, trusting nothing but its key.", ""},
        subcommands = {LogCommand.Monitor.class},
        footer = {"", "Examples:", "  proofmode log monitor https://evidence.example.org --log-key desk-log.key",
            "", ExitCodes.HELP_TABLE})
final class LogCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing subcommand: monitor");
    }

    /** {@code log monitor URL --log-key KEY}. */
    @Command(name = "monitor", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
            description = {"Fetch the log's signed checkpoint (URL/log/checkpoint), rebuild its tree from its tiles, check "
                + "that it is the tree the log key signed, that it extends the checkpoint this home saw last time (a "
                + "consistency proof), and that every entry added since is the leaf the tree holds. The checkpoint is then "
                + "kept in PROOFMODE_HOME/log-monitor/ for the next run: run it from a timer.",
                "",
                "A log that shrank, forked (rewrote its history) or changed an entry exits 3 and prints both checkpoints, "
                + "the one seen before and the one served now: evidence to publish. The one seen before stays kept.", ""})
    static final class Monitor implements Callable<Integer> {
        @ParentCommand
        LogCommand parent;

        @Parameters(paramLabel = "URL", description = "The evidence server's base URL (its log is under URL/log/).")
        String url;

        @Option(names = "--log-key", required = true, paramLabel = "KEY",
                description = "The log's verifier key (origin+hash+base64, as 'proofmode server log-key' prints it) or a file holding it.")
        String key;

        @Override
        public Integer call() throws IOException {
            CliContext ctx = parent.root.ctx;
            NoteKey k = VerifyCommand.logKey(ctx, key);
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
            LogMonitor.Result r = new LogMonitor(new Http(Http.Timeouts.DEFAULT), base, k).check(before);
            String origin = SafeText.escape(k.name());
            if (r.ok()) {
                AtomicFiles.ownerOnlyDirectory(kept.getParent());
                AtomicFiles.write(kept, r.currentNote(), true, true);
                ctx.out().println("proofmode: " + origin + ": " + r.detail());
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

        /** A note line by line, each escaped: what the server sent is untrusted. */
        private static void print(CliContext ctx, byte[] note) {
            new String(note, StandardCharsets.UTF_8).lines().forEach(l -> ctx.out().println(SafeText.escape(l)));
        }
    }
}
