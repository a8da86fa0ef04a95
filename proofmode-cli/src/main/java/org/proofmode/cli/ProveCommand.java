// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.proofmode.ProofMode;
import org.proofmode.bundle.ProofStore;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.context.MetadataSource;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.BatchProver;
import org.proofmode.prove.HeadStart;
import org.proofmode.prove.Prover;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode prove}: make proofs of media files. */
@Command(name = "prove", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Make a proof of each photo, video or audio file.",
            "",
            "A proof is the file's SHA-256, the device's context and OpenPGP signatures, written as "
                + "<sha256>.proof.json and .proof.csv, three .asc signatures and pubkey.asc into the store "
                + "(PROOFMODE_HOME/proofs/<sha256>/) or DIR/<sha256>/ with --out. Files are recognised by "
                + "content, not name; folders are proved recursively on every core, and other files are "
                + "skipped with a notice. Prints '<sha256>  <path>' for each file, and once on stderr where the "
                + "proofs are and how many are new. Proving the same content "
                + "again keeps the existing proof unless --force is given.",
            "",
            "What the proof records beyond the file follows PROOFMODE_HOME/settings ('proofmode settings'): "
                + "by default no location, no network and no device identifier; the options below change "
                + "that for one run. 'proofmode inspect FILE' shows what would be recorded.",
            "",
            "With --tsa URL, --ots or --timestamp each proof is also timestamped (see 'proofmode timestamp'). A "
                + "service that cannot be reached does not stop the proof: the request is queued, a notice is "
                + "printed, and 'proofmode timestamp sync' retries it; --require-timestamp makes that exit 47.",
            ""},
        footer = {"", "Examples:", "  proofmode prove IMG_0001.jpg",
            "  proofmode prove --out proofs/ --notes 'main square, noon' ~/DCIM",
            "  proofmode prove --ots --tsa https://tsa.example/tsr IMG_0001.jpg",
            "  proofmode prove --c2pa IMG_0001.jpg      (writes and proves IMG_0001.c2pa.jpg)",
            "  proofmode prove --json ~/DCIM            one JSON line per file, for scripts", "", ExitCodes.HELP_TABLE})
final class ProveCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--out", paramLabel = "DIR", description = "Write proofs under DIR/<sha256>/ instead of the store.")
    Path out;

    @Option(names = "--notes", paramLabel = "TEXT", description = "Free text recorded in the proof (field Notes).")
    String notes;

    @Option(names = "--force", description = "Write a fresh proof even if one of this content exists.")
    boolean force;

    @Mixin
    KeyOptions keyOptions;

    @Mixin
    ContextOptions context;

    @Option(names = "--j3m", negatable = true, description = "Also write (or not) <sha256>.j3m.json, CameraV's J3M "
            + "layout, signed like the other proof files.")
    Boolean j3m;

    @Option(names = "--no-context", hidden = true, description = "Record only the file's hash, path and times (for benchmarks).")
    boolean noContext;

    @Mixin
    TimestampOptions timestampOptions;

    @Option(names = "--timestamp", description = "Timestamp each proof with every service in PROOFMODE_HOME/timestamp.conf.")
    boolean timestamp;

    @Option(names = "--c2pa", description = "First embed content credentials (C2PA) in a copy NAME.c2pa.EXT of each JPEG "
            + "or PNG, signed by the local C2PA CA (created on first use; see 'proofmode c2pa'), then prove the copy: the "
            + "proof covers the manifest. With --tsa, the manifest's signature is time-stamped there too.")
    boolean c2pa;

    @Option(names = "--json", description = "Print one JSON object per file, in the order given (JSON lines): {\"path\", "
            + "\"sha256\", \"outcome\": \"proved\"|\"existing\"|\"skipped\", \"stored\": the proof's folder, \"notices\": [...], "
            + "\"timestamps\": [{\"kind\", \"outcome\", \"detail\"}]}; a file that could not be proved is {\"path\", \"error\": "
            + "{\"exitCode\", \"message\"}}. The notices are then in the lines, not on stderr.")
    boolean json;

    @Option(names = "--jobs", paramLabel = "N", description = "Files proved at once (default: four per core); proofs that wait for the disk do not count, and are flushed to it together.")
    Integer jobs;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Media files or folders.")
    List<Path> paths;

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        if (jobs != null && jobs < 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--jobs must be at least 1");
        }
        ProveFiles.Listed listed = ProveFiles.list(ctx, paths);
        if (listed.work().isEmpty()) {
            return listed.exit();
        }
        ProofMode pm = root.proofMode();
        keyOptions.passphraseFile = keyOptions.passphraseFile == null ? null : ctx.resolve(keyOptions.passphraseFile);
        keyOptions.pinFile = keyOptions.pinFile == null ? null : ctx.resolve(keyOptions.pinFile);
        timestampOptions.tsaTrust.replaceAll(ctx::resolve);
        // Unlock (or create) the key from the start: meanwhile settings are read and media are hashed (for
        // large files, from once their hashing is under way: see HeadStart.Unlock). A credentialed copy (--c2pa)
        // is signed first, so there the key is had after it. An agent running this command holds the key
        // unlocked already.
        HeadStart.Unlock unlock = new HeadStart.Unlock(listed.bytes());
        CompletableFuture<SigningKey> early = ctx.heldKey().map(CompletableFuture::completedFuture)
                .orElseGet(() -> c2pa ? null : DeviceKeyAccess.unlockOrCreateAsync(ctx, pm, keyOptions, unlock.future()));
        Settings settings;
        List<MetadataSource> sources;
        try {
            settings = context.apply(pm.settings());
            sources = noContext ? List.of() : pm.contextSources(settings, context.manualLocation());
        } catch (RuntimeException e) {
            // The command ends here: let the key's unlock or creation, already under way, finish first,
            // so that nothing of this command still writes to the home after it has answered.
            if (early != null) {
                unlock.settle(early);
            }
            throw e;
        }
        Optional<BatchProver.Stamping> stamping = stamping(pm);
        if (c2pa) {
            ProveFiles.Listed copies = credentialedCopies(ctx, pm, settings, listed.work());
            listed = new ProveFiles.Listed(copies.work(), ProveFiles.firstError(listed.exit(), copies.exit()));
            if (listed.work().isEmpty()) {
                return listed.exit();
            }
        }
        CompletableFuture<SigningKey> key = early != null ? early : DeviceKeyAccess.unlockOrCreateAsync(ctx, pm, keyOptions);
        ProofStore store = out == null ? pm.store() : new ProofStore(ctx.resolve(out));
        Prover prover = pm.prover(unlock.whenAsked(key), store, sources).withJ3m(j3m != null ? j3m : settings.j3m())
                .withReadAlready(HeadStart.readsBegun());
        if (!noContext && settings.frameHashes() && ctx.terminal().interactive() && ProveFiles.anyVideoOrAudio(listed.work())) {
            // The bar counts the bytes read; ffmpeg's decode for the frame and sample hashes comes after.
            ctx.err().println("proofmode: video and audio are also decoded by ffmpeg for their frame and sample hashes, "
                    + "after the file is read: about as long as 'ffmpeg -f framehash' takes (setting frame-hashes)");
        }
        return proveAll(ctx, listed, prover, unlock, key, stamping, store);
    }

    /** Proves the files on a pool, printing each file's outcome in the order given; the exit code of the first error. */
    private int proveAll(CliContext ctx, ProveFiles.Listed listed, Prover prover, HeadStart.Unlock unlock, CompletableFuture<SigningKey> key,
            Optional<BatchProver.Stamping> stamping, ProofStore store) throws InterruptedException {
        List<ProveFiles.Work> work = listed.work();
        ProgressBar bar = new ProgressBar(ctx.err(), ctx.terminal().interactive() && (work.size() > 1 || listed.bytes() > (64L << 20)),
                listed.bytes(), work.size());
        Prover.Options options = new Prover.Options(Optional.ofNullable(notes), force, n -> {
            bar.bytes(n);
            unlock.hashed(n);
        });
        int exit = listed.exit();
        ProvePrinter printer = new ProvePrinter(ctx, bar, json);
        try (BatchProver batch = new BatchProver(jobs != null ? jobs : BatchProver.defaultThreads(work.size()), "prove", stamping)) {
            List<Future<BatchProver.Item>> futures = new ArrayList<>();
            for (ProveFiles.Work w : work) {
                futures.add(batch.submit(() -> {
                    try {
                        return batch.prove(prover, w.path(), options);
                    } finally {
                        bar.fileDone();
                    }
                }));
            }
            try {
                HeadStart.Unlock.join(key);
            } catch (ProofModeException e) {
                bar.finish();
                ctx.err().println("proofmode: " + e.getMessage());
                return ExitCodes.of(e.failure());
            }
            for (int i = 0; i < work.size(); i++) {
                exit = ProveFiles.firstError(exit, printer.print(work.get(i), futures.get(i)));
            }
            bar.finish();
            printer.where(Optional.ofNullable(out), store.root());
            // A timestamp that could not be had never fails the proof, unless one was required now.
            if (timestampOptions.requireTimestamp) {
                exit = ProveFiles.firstError(exit, StampPrinter.exit(printer.stamps(), true));
            }
        } finally {
            bar.finish();
        }
        return exit;
    }

    /** What --tsa, --ots or --timestamp ask for; a proof kept from before is stamped too (asking for it is why it was named again). */
    private Optional<BatchProver.Stamping> stamping(ProofMode pm) {
        if (!timestamp && !timestampOptions.anyNamed()) {
            return Optional.empty();
        }
        TimestampSettings.writeDefaultIfMissing(pm.home());
        Timestamps ts = timestampOptions.timestamps(pm);
        return Optional.of(new BatchProver.Stamping(ts, timestampOptions.asked(pm.home(), ts.settings(), timestamp).orElseThrow(), true));
    }

    /** The credentialed copies of {@code --c2pa}, signed by the local CA (or the token's key) with the device key's passphrase. */
    private ProveFiles.Listed credentialedCopies(CliContext ctx, ProofMode pm, Settings settings, List<ProveFiles.Work> work)
            throws IOException {
        Map.Entry<KeyInfo, C2paSigner> unlocked = C2paAccess.unlock(ctx, pm, keyOptions, null, null);
        Optional<TimeStamper> stamper = timestampOptions.tsa.stream().findFirst()
                .map(t -> pm.c2paTimeStamper(t, timestampOptions.proxy.choose(pm.settings())));
        return ProveFiles.credentialed(ctx, work, f -> pm.contextReader(settings, context.manualLocation()).read(f), unlocked.getKey().fingerprint(),
                unlocked.getValue(), stamper, force);
    }
}
