// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.proofmode.ProofMode;
import org.proofmode.cli.print.WatchLog;
import org.proofmode.context.ContextSources;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.HeadStart;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.watch.WatchConfig;
import org.proofmode.watch.WatchDb;
import org.proofmode.watch.WatchSeal;
import org.proofmode.watch.Watcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode watch}: prove every new or changed media file in some folders, until stopped. */
@Command(name = "watch", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Watch folders and prove every new or changed photo, video or audio file in them, until stopped "
                + "(Ctrl-C or SIGTERM: proofs under way are finished first).",
            "",
            "Made for camera imports, phone sync folders and tethered shooting. File-system events say where to "
                + "look, and every folder is walked again every --rescan seconds, so lost events, network folders "
                + "and files that arrived while no watcher ran are all caught; on start the watcher catches up. A "
                + "file is proved once it is complete: its size and time unchanged for --settle-ms (or, for a file last "
                + "modified longer ago than that, unchanged at a second look) and no process has it open for writing. The device's context (clock, network, location, as the settings say) is "
                + "taken when the file is first seen, and the proof records Watch.DetectedAt, Watch.DetectedBy, "
                + "Watch.SizeAtDetection, Watch.ModifiedAtDetection and Watch.CompleteAt besides the file's own times.",
            "",
            "The same content is never proved twice: a copy, a rename or a move is recognised by its hash. A "
                + "deleted file keeps its proof. An unreadable file is retried with backoff and reported as failed "
                + "after a few attempts; a proof that cannot be stored (a full disk) is retried until it can. Queued "
                + "timestamp requests are retried while the watcher runs. State lives in PROOFMODE_HOME/watch.db "
                + "(SQLite); 'proofmode status' shows it. One watcher per PROOFMODE_HOME.",
            "",
            "With an encrypted proof store, the proofs are sealed to the store's recipient and the database is sealed "
                + "too: no path, file name or media hash in it is readable. Its key (PROOFMODE_HOME/keys/watch-key.age) is "
                + "unlocked with the device key's passphrase at start, with the key; the watcher never holds the store's "
                + "identity, so it cannot tell a content proved before by 'prove' and proves it again (readers take the newest set). "
                + "'proofmode status' then shows the folders, last proofs and errors only with the identity (see its help).",
            "",
            "The device key is unlocked once, at start: its passphrase comes from --passphrase-file, "
                + "PROOFMODE_PASSPHRASE, the generated passphrase file, or a prompt (a key in a PKCS#11 token: "
                + "one login, with its PIN from --pin-file, PROOFMODE_PIN or a prompt). Every event is one line on "
                + "stderr (--log-format json for one JSON object per line). To run it at login, see packaging/.",
            ""},
        footer = {"", "Examples:", "  proofmode watch ~/Pictures/Import",
            "  proofmode watch --recursive --log-format json ~/Sync/Camera 2>>watch.log",
            "  PROOFMODE_PASSPHRASE=... proofmode watch --timestamp /media/card/DCIM",
            "  proofmode watch --publish --tor ~/Sync/Camera   prove each new photo and send it to your server over Tor",
            "  PROOFMODE_WATCH_FOLDERS=~/Pictures/Import:/media/card/DCIM proofmode watch   the folders as the login unit names them",
            "", ExitCodes.HELP_TABLE})
final class WatchCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = {"-r", "--recursive"}, description = "Watch the folders below each DIR too (hidden ones excepted).")
    boolean recursive;

    @Option(names = "--settle-ms", paramLabel = "MS", defaultValue = "500",
            description = "How long a file must stay unchanged, with no writer, before it is proved (default: ${DEFAULT-VALUE}).")
    long settleMillis;

    @Option(names = "--rescan", paramLabel = "SECONDS", defaultValue = "60",
            description = "Walk every folder again this often, to catch what events missed (default: ${DEFAULT-VALUE}).")
    long rescanSeconds;

    @Option(names = "--jobs", paramLabel = "N", description = "Files proved at once (default: four per core).")
    Integer jobs;

    @Option(names = "--attempts", paramLabel = "N", defaultValue = "5",
            description = "Tries on an unreadable file (waits 1 s, 2 s, 4 s, … between them) before it is reported as failed (default: ${DEFAULT-VALUE}).")
    int attempts;

    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "Log lines as ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    WatchLog.Format logFormat;

    @Option(names = "--notes", paramLabel = "TEXT", description = "Free text recorded in every proof (field Notes).")
    String notes;

    @Mixin
    KeyOptions keyOptions;

    @Mixin
    ContextOptions context;

    @Option(names = "--j3m", negatable = true, description = "Also write (or not) CameraV's J3M document with each proof.")
    Boolean j3m;

    @Mixin
    TimestampOptions timestampOptions;

    @Option(names = "--timestamp", description = "Timestamp each new proof with every service in PROOFMODE_HOME/timestamp.conf.")
    boolean timestamp;

    @Option(names = "--publish", description = "Publish each new proof to the evidence server set by 'proofmode publish login' "
            + "(what of it: setting publish.mode; through publish.proxy, --proxy or --tor), queueing it while the server is away; "
            + "the queue is retried as timestamps are.")
    boolean publish;

    @Parameters(paramLabel = "DIR", arity = "0..*", description = "Folders to watch (default: those of PROOFMODE_WATCH_FOLDERS, "
            + "separated by ':', as the systemd unit reads them from ~/.config/proofmode/watch.env).")
    List<Path> dirs = new ArrayList<>();

    /** The folders of {@code PROOFMODE_WATCH_FOLDERS} when none is named: what the login unit passes. */
    private List<Path> folders(CliContext ctx) {
        if (!dirs.isEmpty()) {
            return dirs;
        }
        String listed = ctx.env().getOrDefault("PROOFMODE_WATCH_FOLDERS", "");
        return java.util.Arrays.stream(listed.split(":")).map(String::strip).filter(f -> !f.isEmpty())
                .map(f -> ctx.resolve(Path.of(f))).toList();
    }

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        if (settleMillis < 0 || rescanSeconds < 1 || attempts < 1 || (jobs != null && jobs < 1)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--settle-ms must be at least 0, --rescan, --attempts and --jobs at least 1");
        }
        if (timestampOptions.requireTimestamp) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--require-timestamp has no meaning for watch "
                    + "(requests that cannot be served are queued and retried)");
        }
        if (folders(ctx).isEmpty()) {
            ctx.err().println("proofmode: name the folders to watch: DIR..., or PROOFMODE_WATCH_FOLDERS=DIR:DIR");
            return ExitCodes.MISSING_ARGUMENT;
        }
        List<Path> folders = new ArrayList<>();
        for (Path d : folders(ctx)) {
            if (!Files.isDirectory(d)) {
                throw new ProofModeException(Failure.INPUT_MISSING, d + ": no such folder");
            }
            folders.add(d.toAbsolutePath().normalize().toRealPath());
        }
        ProofMode pm = root.proofMode();
        // Unlock (or create) the key, and load the database's native library, while settings are read,
        // the folders are scanned and the first files settle; a key that cannot be unlocked stops the
        // watcher before any proof is attempted with it.
        CompletableFuture<SigningKey> key;
        Optional<Supplier<WatchSeal>> seal = Optional.empty();
        if (pm.store().isEncrypted()) {
            // The watcher's database is sealed with the watch key, unlocked with the same passphrase (at the same time).
            Passphrase p = StoreAccess.passphrase(ctx, pm.keys(), keyOptions.passphraseFile);
            Passphrase forKey = Passphrase.adopt(p.chars().clone());
            key = CompletableFuture.supplyAsync(() -> {
                try (forKey) {
                    return pm.keys().unlock(forKey);
                }
            });
            CompletableFuture<WatchSeal> sealing = CompletableFuture.supplyAsync(() -> {
                try (p) {
                    return WatchSeal.unlock(pm.storeKeys(), p);
                }
            });
            seal = Optional.of(() -> HeadStart.Unlock.join(sealing));
        } else {
            key = DeviceKeyAccess.unlockOrCreateAsync(ctx, pm, keyOptions);
        }
        WatchDb.loadDriverAsync();
        Settings settings = context.apply(pm.settings());
        TimestampSettings.writeDefaultIfMissing(pm.home());
        Timestamps ts = timestampOptions.timestamps(pm);
        Optional<StampRequest> request = timestampOptions.asked(pm.home(), ts.settings(), timestamp);
        Optional<Publishing> publishing = publish
                ? Optional.of(new Publishing(PublishAccess.publisher(ctx, pm, settings, timestampOptions.proxy, keyOptions.passphraseFile),
                        Publisher.What.parse(settings.publishMode())))
                : Optional.empty();
        AtomicReference<Throwable> keyFailure = new AtomicReference<>();
        WatchConfig defaults = WatchConfig.defaults(folders, recursive);
        WatchConfig config = new WatchConfig(folders, recursive, Duration.ofMillis(settleMillis), Duration.ofSeconds(rescanSeconds),
                jobs != null ? jobs : defaults.workers(), attempts, defaults.firstBackoff(), defaults.timestampSync(),
                Optional.ofNullable(notes), j3m != null ? j3m : settings.j3m());
        Watcher watcher = new Watcher(new Watcher.Setup(pm, () -> HeadStart.Unlock.join(key), config,
                ContextSources.surroundings(pm.home(), settings, context.manualLocation()), ContextSources.media(pm.home(), settings),
                Optional.of(ts), request, new WatchLog(ctx.err(), logFormat, seal.isPresent()), Clock.systemUTC(), publishing, seal));
        key.whenComplete((k, e) -> {
            if (e != null) {
                keyFailure.set(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
                watcher.stop();
            }
        });
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            watcher.stop();
            try {
                done.await(40, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "proofmode-watch-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            watcher.run();
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running
            }
        }
        Throwable failed = keyFailure.get();
        if (failed instanceof ProofModeException pme) {
            throw pme;
        } else if (failed != null) {
            throw new IllegalStateException(failed);
        }
        return ExitCodes.OK;
    }
}
