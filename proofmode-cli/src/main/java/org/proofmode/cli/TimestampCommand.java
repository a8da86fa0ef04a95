// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.cli.print.QueueSummary;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofSet;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.QueuedStamp;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.StampResult;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.util.Hex;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode timestamp}: trusted timestamps for stored proofs, now or later. */
@Command(name = "timestamp", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Get trusted timestamps for proofs: an RFC 3161 token (<sha256>.tsr) and an OpenTimestamps proof (<sha256>.ots).",
            "",
            "What is stamped is the media signature <sha256>.asc, so a timestamp shows that the signature, and "
                + "the media it covers, existed then. Without --tsa or --ots, every service in "
                + "PROOFMODE_HOME/timestamp.conf is asked (its tsa.url lines, and its OpenTimestamps calendars, by "
                + "default the public ones). A service that cannot be reached leaves the request queued in "
                + "PROOFMODE_HOME/timestamp-queue/; 'timestamp sync' retries it. OpenTimestamps proofs start "
                + "pending; 'timestamp upgrade' fetches the Bitcoin attestation once the calendars have one "
                + "(a few hours later). Prints '<sha256>  <kind>  <outcome>  <detail>' per timestamp.",
            ""},
        subcommands = {TimestampCommand.Sync.class, TimestampCommand.Upgrade.class},
        footer = {"", "Examples:", "  proofmode timestamp --tsa https://tsa.example/tsr IMG_0001.jpg",
            "  proofmode timestamp --json --ots IMG_0001.jpg   one JSON line per timestamp",
            "  proofmode timestamp --ots 0b8d8b5f1504...6647351 (the full hash)",
            "  proofmode timestamp sync --now", "  proofmode timestamp upgrade", "", ExitCodes.HELP_TABLE})
final class TimestampCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Mixin
    TimestampOptions options;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    @Parameters(paramLabel = "HASH|PATH", arity = "0..*", description = "Proved media files, proof folders, or their SHA-256.")
    List<String> proofs = new ArrayList<>();

    @Override
    public Integer call() {
        if (proofs.isEmpty()) {
            throw new picocli.CommandLine.MissingParameterException(options.spec.commandLine(),
                    options.spec.positionalParameters().get(0), "Missing required parameter: 'HASH|PATH' (or a subcommand: sync, upgrade)");
        }
        ProofMode pm = StoreAccess.reading(root.ctx, root.proofMode(), unlock.passphraseFile);
        TimestampSettings.writeDefaultIfMissing(pm.home());
        Timestamps ts = options.timestamps(pm);
        StampRequest request = options.request(ts.settings(), true).orElseThrow(() -> new ProofModeException(Failure.INCOMPATIBLE_OPTIONS,
                "no timestamp service: name one with --tsa URL or --ots, or add tsa.url / ots.calendar lines to "
                        + pm.home().resolve(TimestampSettings.FILE)));
        List<StampResult> all = new ArrayList<>();
        for (String arg : proofs) {
            Target t = target(pm, arg);
            List<StampResult> r = ts.stamp(t.folder(), t.sha256(), request);
            StampPrinter.print(root.ctx.out(), r, json);
            all.addAll(r);
        }
        root.ctx.out().flush();
        if (all.stream().anyMatch(r -> r.outcome() == StampResult.Outcome.QUEUED)) {
            root.ctx.err().println("proofmode: some services could not be reached; the requests are queued (run 'proofmode timestamp sync' later)");
        }
        return StampPrinter.exit(all, options.requireTimestamp);
    }

    static final String JSON_HELP = "Print one JSON object per timestamp (JSON lines): {\"sha256\", \"kind\": \"rfc3161\"|\"ots\", "
            + "\"outcome\": \"stamped\"|\"queued\"|..., \"detail\"}.";

    /** A proof to stamp. */
    record Target(String sha256, Path folder) {}

    /** Finds a proof by hash, media file, or proof folder (e.g. one written with {@code prove --out}). */
    static Target target(ProofMode pm, String arg) {
        Path p = Path.of(arg);
        if (Files.isDirectory(p)) {
            String name = p.toAbsolutePath().normalize().getFileName().toString();
            if (Hex.isSha256(name) && Files.isRegularFile(p.resolve(ProofFiles.mediaSig(name)))) {
                return new Target(name, p.toAbsolutePath().normalize());
            }
            throw new ProofModeException(Failure.INPUT_MISSING, arg + ": not a proof folder (<sha256>/ with <sha256>.asc)");
        }
        ProofMode.StoredProof f = pm.find(arg);
        return new Target(f.sha256(), f.folder());
    }

    /** {@code proofmode timestamp sync}: retry queued requests. */
    @Command(name = "sync", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
            description = {"Retry the timestamp requests queued while their services could not be reached.",
                "", "Requests are retried with backoff (1 minute, doubling, at most 1 hour); --now retries every one. "
                    + "Prints a line per timestamp tried, then how many requests are still queued.", ""},
            footer = {"", "Examples:", "  proofmode timestamp sync                        (what is due)",
                "  proofmode timestamp sync --now --require-timestamp   (everything; exit 47 if a service is still down)",
                "", ExitCodes.HELP_TABLE})
    static final class Sync implements Callable<Integer> {
        @ParentCommand
        TimestampCommand parent;

        @Option(names = "--now", description = "Retry every queued request, even those waiting out their backoff.")
        boolean now;

        @Option(names = "--require-timestamp", description = "Exit 47 if a service still cannot be reached.")
        boolean requireTimestamp;

        @Option(names = "--json", description = JSON_HELP)
        boolean json;

        @Mixin
        UnlockOptions unlock;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            Timestamps ts = parent.options.timestamps(StoreAccess.reading(ctx, parent.root.proofMode(), unlock.passphraseFile));
            List<StampResult> r = ts.sync(now);
            StampPrinter.print(ctx.out(), r, json);
            QueueSummary.print(ctx.err(), "timestamp queue", "request(s)", ts.queue().list().stream().map(QueuedStamp::nextTry).toList());
            return StampPrinter.exit(r, requireTimestamp);
        }
    }

    /** {@code proofmode timestamp upgrade}: complete pending OpenTimestamps proofs. */
    @Command(name = "upgrade", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
            description = {"Ask the calendars whether pending OpenTimestamps proofs are anchored in Bitcoin yet, and add what they answer.",
                "", "Without HASH|PATH, every proof in the store with an .ots file is upgraded. Only calendars listed "
                    + "in PROOFMODE_HOME/timestamp.conf (by default the public ones) are asked, and none about a proof "
                    + "already anchored in a Bitcoin block ('existing'). The .ots file is rewritten atomically; its "
                    + "pending attestations are kept.", ""},
            footer = {"", "Examples:", "  proofmode timestamp upgrade                     (every stored proof with an .ots)",
                "  proofmode timestamp upgrade IMG_0001.jpg", "", ExitCodes.HELP_TABLE})
    static final class Upgrade implements Callable<Integer> {
        @ParentCommand
        TimestampCommand parent;

        @Option(names = "--json", description = JSON_HELP)
        boolean json;

        @Parameters(paramLabel = "HASH|PATH", arity = "0..*", description = "Proofs to upgrade (default: all in the store).")
        List<String> proofs = new ArrayList<>();

        @Mixin
        UnlockOptions unlock;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = StoreAccess.reading(ctx, parent.root.proofMode(), unlock.passphraseFile);
            Timestamps ts = pm.timestamps(List.of(), parent.options.proxy.choose(pm.settings()));
            List<Target> targets = new ArrayList<>();
            if (proofs.isEmpty()) {
                for (String h : pm.store().list()) {
                    Optional<ProofSet> set = pm.store().set(h);
                    if (set.isPresent() && set.get().has(h + ".ots")) {
                        targets.add(new Target(h, set.get().folder()));
                    }
                }
            } else {
                proofs.forEach(a -> targets.add(target(pm, a)));
            }
            List<StampResult> all = new ArrayList<>();
            for (Target t : targets) {
                List<StampResult> r = ts.upgrade(t.folder(), t.sha256());
                StampPrinter.print(ctx.out(), r, json);
                all.addAll(r);
            }
            if (targets.isEmpty()) {
                ctx.err().println("proofmode: no OpenTimestamps proofs to upgrade");
            }
            return StampPrinter.exit(all, false);
        }
    }
}
