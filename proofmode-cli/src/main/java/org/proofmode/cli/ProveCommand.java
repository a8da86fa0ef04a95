// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.proofmode.ProofMode;
import org.proofmode.bundle.ProofStore;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.cli.print.ProgressBar;
import org.proofmode.context.MetadataSource;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaSniffer;
import org.proofmode.media.MediaType;
import org.proofmode.prove.BatchProver;
import org.proofmode.prove.HeadStart;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.timestamp.StampResult;
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

    @Option(names = "--jobs", paramLabel = "N", description = "Files proved at once (default: four per core, so that hashing goes on while writes are flushed to disk).")
    Integer jobs;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Media files or folders.")
    List<Path> paths;

    /** This run's proofs: made now, and kept from before. */
    private int proved;
    private int existing;

    /** A file to prove: as the command line names it, and where it is. */
    private record Work(Path file, Path path, boolean explicit, long size) {}

    @Override
    public Integer call() throws Exception {
        CliContext ctx = root.ctx;
        if (jobs != null && jobs < 1) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--jobs must be at least 1");
        }
        int exit = ExitCodes.OK;
        List<Work> work = new ArrayList<>();
        for (Path p : paths) {
            Path at = ctx.resolve(p);
            if (!Files.exists(at)) {
                ctx.err().println("proofmode: " + p + ": no such file or folder");
                exit = firstError(exit, ExitCodes.INPUT_MISSING);
            } else if (Files.isDirectory(at)) {
                List<Path> files = BatchProver.filesUnder(at);
                for (Path f : files) {
                    work.add(new Work(p.resolve(at.relativize(f)), f, false, Files.size(f)));
                }
                if (files.isEmpty()) {
                    // Not an error (a drop folder may be empty), but never silence.
                    ctx.err().println("proofmode: " + p + ": no files to prove in this folder");
                }
            } else if (!Files.isRegularFile(at)) {
                // A device never ends and a FIFO can be read only once: neither can be hashed and then described.
                ctx.err().println("proofmode: " + p + ": not a regular file (a device, FIFO or socket); give a media file");
                exit = firstError(exit, ExitCodes.UNSUPPORTED);
            } else {
                work.add(new Work(p, at, true, Files.size(at)));
            }
        }
        if (work.isEmpty()) {
            return exit;
        }
        ProofMode pm = root.proofMode();
        if (keyOptions.passphraseFile != null) {
            keyOptions.passphraseFile = ctx.resolve(keyOptions.passphraseFile);
        }
        if (keyOptions.pinFile != null) {
            keyOptions.pinFile = ctx.resolve(keyOptions.pinFile);
        }
        timestampOptions.tsaTrust.replaceAll(ctx::resolve);
        // Unlock (or create) the key from the start: meanwhile settings are read and media are hashed (for
        // large files, from once their hashing is under way: see HeadStart). A credentialed copy (--c2pa)
        // is signed first, so there the key is had after it. An agent running this command holds the key
        // unlocked already.
        HeadStart.Unlock unlockStart = new HeadStart.Unlock(work.stream().mapToLong(Work::size).sum());
        CompletableFuture<SigningKey> early = ctx.heldKey().map(CompletableFuture::completedFuture)
                .orElseGet(() -> c2pa ? null : DeviceKeyAccess.unlockOrCreateAsync(ctx, pm, keyOptions, unlockStart.future()));
        Settings settings;
        List<MetadataSource> sources;
        try {
            settings = context.apply(pm.settings());
            sources = noContext ? List.of() : pm.contextSources(settings, context.manualLocation());
        } catch (RuntimeException e) {
            // The command ends here: let the key's unlock or creation, already under way, finish first,
            // so that nothing of this command still writes to the home after it has answered.
            if (early != null) {
                unlockStart.now();
                early.handle((k, x) -> null).join();
            }
            throw e;
        }
        Optional<BatchProver.Stamping> stamping = Optional.empty();
        if (timestamp || timestampOptions.anyNamed()) {
            TimestampSettings.writeDefaultIfMissing(pm.home());
            Timestamps ts = timestampOptions.timestamps(pm);
            // A proof kept from before is stamped too: asking for a timestamp of it is why it was named again.
            stamping = Optional.of(new BatchProver.Stamping(ts, timestampOptions.asked(pm.home(), ts.settings(), timestamp).orElseThrow(),
                    true));
        }
        if (c2pa) {
            List<Work> credentialed = new ArrayList<>();
            exit = firstError(exit, credentialedCopies(ctx, pm, settings, work, credentialed));
            work = credentialed;
            if (work.isEmpty()) {
                return exit;
            }
        }
        CompletableFuture<SigningKey> key = early != null ? early : DeviceKeyAccess.unlockOrCreateAsync(ctx, pm, keyOptions);
        ProofStore store = out == null ? pm.store() : new ProofStore(ctx.resolve(out));
        Prover prover = pm.prover(() -> {
            unlockStart.now();
            return DeviceKeyAccess.join(key);
        }, store, sources)
                .withJ3m(j3m != null ? j3m : settings.j3m())
                .withReadAlready(HeadStart.readsBegun());
        long total = work.stream().mapToLong(Work::size).sum();
        if (!noContext && settings.frameHashes() && ctx.terminal().interactive() && anyVideoOrAudio(work)) {
            // The bar counts the bytes read; ffmpeg's decode for the frame and sample hashes comes after.
            ctx.err().println("proofmode: video and audio are also decoded by ffmpeg for their frame and sample hashes, "
                    + "after the file is read: about as long as 'ffmpeg -f framehash' takes (setting frame-hashes)");
        }
        ProgressBar bar = new ProgressBar(ctx.err(), ctx.terminal().interactive() && (work.size() > 1 || total > (64L << 20)),
                total, work.size());
        Prover.Options options = new Prover.Options(Optional.ofNullable(notes), force, n -> {
            bar.bytes(n);
            unlockStart.hashed(n);
        });
        try (BatchProver batch = new BatchProver(jobs != null ? jobs : BatchProver.defaultThreads(work.size()), "prove", stamping)) {
            List<Future<BatchProver.Item>> futures = new ArrayList<>();
            for (Work w : work) {
                futures.add(batch.submit(() -> {
                    try {
                        return batch.prove(prover, w.path(), options);
                    } finally {
                        bar.fileDone();
                    }
                }));
            }
            try {
                DeviceKeyAccess.join(key);
            } catch (ProofModeException e) {
                bar.finish();
                ctx.err().println("proofmode: " + e.getMessage());
                return ExitCodes.of(e.failure());
            }
            List<StampResult> stamps = new ArrayList<>();
            for (int i = 0; i < work.size(); i++) {
                exit = firstError(exit, report(ctx, bar, work.get(i), futures.get(i), stamps));
            }
            bar.finish();
            where(ctx, store);
            // A timestamp that could not be had never fails the proof, unless one was required now.
            if (timestampOptions.requireTimestamp) {
                exit = firstError(exit, StampPrinter.exit(stamps, true));
            }
        } finally {
            bar.finish();
        }
        return exit;
    }

    /**
     * Makes the credentialed copies of {@code --c2pa} and adds what is to be proved to {@code out}.
     *
     * @return the first error's exit code, or OK
     */
    private int credentialedCopies(CliContext ctx, ProofMode pm, Settings settings, List<Work> work, List<Work> out) throws IOException {
        Map.Entry<KeyInfo, C2paSigner> unlocked = C2paAccess.unlock(ctx, pm, keyOptions, null, null);
        Optional<TimeStamper> stamper = timestampOptions.tsa.stream().findFirst()
                .map(t -> pm.c2paTimeStamper(t, timestampOptions.proxy.choose(pm.settings())));
        int exit = ExitCodes.OK;
        for (Work w : work) {
            try {
                ContentCredentials.Copy c = ContentCredentials.copy(w.path(), f -> pm.inspect(f, settings, context.manualLocation()).fields(),
                        unlocked.getKey().fingerprint(), unlocked.getValue(), stamper, force);
                if (c.asItIs().isPresent()) {
                    ctx.err().println("proofmode: " + w.file() + ": " + c.asItIs().get());
                    out.add(w);
                } else {
                    Path named = w.file().resolveSibling(c.file().getFileName());
                    ctx.err().println("proofmode: content credentials: " + named);
                    out.add(new Work(named, c.file(), true, Files.size(c.file())));
                }
            } catch (ProofModeException e) {
                ctx.err().println("proofmode: " + e.getMessage());
                exit = firstError(exit, ExitCodes.of(e.failure()));
            }
        }
        return exit;
    }

    /**
     * Says once, on stderr, where this run's proofs are: the store (or --out) and how many are new. A run
     * that stored nothing says nothing.
     */
    private void where(CliContext ctx, ProofStore store) {
        if (proved + existing == 0) {
            return;
        }
        String folder = out != null ? out.toString() : home(store.root().toString());
        ctx.err().println("proofmode: proofs " + (out != null ? "written to " : "stored in ") + folder + " (" + proved + " new"
                + (existing > 0 ? ", " + existing + " kept from before" : "") + ")");
    }

    /** A path under the user's home folder written as {@code ~/...}, as a shell user reads it. */
    private static String home(String path) {
        String user = System.getProperty("user.home");
        if (user != null && !user.isEmpty() && !user.equals("/") && path.startsWith(user + "/")) {
            return "~" + path.substring(user.length());
        }
        return path;
    }

    private int report(CliContext ctx, ProgressBar bar, Work w, Future<BatchProver.Item> f, List<StampResult> stamps)
            throws InterruptedException {
        BatchProver.Item item;
        try {
            item = f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProofModeException pme) {
                bar.finish();
                if (json) {
                    JsonOut.println(ctx.out(), JsonOut.error("path", w.file().toString(), pme));
                } else {
                    ctx.err().println("proofmode: " + pme.getMessage());
                }
                return ExitCodes.of(pme.failure());
            }
            throw new IllegalStateException(e.getCause());
        }
        bar.finish();
        if (json) {
            return printJson(ctx, w, item, stamps);
        }
        ProveResult r = item.result();
        switch (r.outcome()) {
            case PROVED -> {
                ctx.out().println(r.sha256().orElseThrow() + "  " + w.file());
                proved++;
            }
            case EXISTING -> {
                ctx.out().println(r.sha256().orElseThrow() + "  " + w.file());
                existing++;
                ctx.err().println("proofmode: " + w.file() + ": already proved in " + r.proofFolder().orElseThrow()
                        + " (use --force for a fresh proof)");
            }
            case SKIPPED -> {
                ctx.err().println("proofmode: skipped " + w.file() + ": " + r.reason().orElse("not media"));
                return w.explicit() ? ExitCodes.UNSUPPORTED : ExitCodes.OK;
            }
            default -> throw new IllegalStateException(r.outcome().name());
        }
        ctx.out().flush();
        if (item.stampFailure().isPresent()) {
            throw item.stampFailure().get();
        }
        StampPrinter.notices(ctx.err(), item.stamps());
        stamps.addAll(item.stamps());
        return ExitCodes.OK;
    }

    /** A file's JSON line (see --json); the exit code as the text does. */
    private static int printJson(CliContext ctx, Work w, BatchProver.Item item, List<StampResult> stamps) {
        ProveResult r = item.result();
        ObjectNode n = JsonOut.object().put("path", w.file().toString());
        r.sha256().ifPresent(h -> n.put("sha256", h));
        n.put("outcome", r.outcome().name().toLowerCase(java.util.Locale.ROOT));
        r.proofFolder().ifPresent(f -> n.put("stored", f.toString()));
        ArrayNode notices = n.putArray("notices");
        if (r.outcome() == ProveResult.Outcome.EXISTING) {
            notices.add("already proved (use --force for a fresh proof)");
        }
        r.reason().ifPresent(notices::add);
        if (item.stampFailure().isPresent()) {
            throw item.stampFailure().get();
        }
        StringWriter stampNotices = new StringWriter();
        StampPrinter.notices(new PrintWriter(stampNotices), item.stamps());
        stampNotices.toString().lines().map(l -> l.replaceFirst("^proofmode: ", "")).forEach(notices::add);
        n.set("timestamps", JsonOut.stamps(item.stamps()));
        JsonOut.println(ctx.out(), n);
        stamps.addAll(item.stamps());
        return r.outcome() == ProveResult.Outcome.SKIPPED && w.explicit() ? ExitCodes.UNSUPPORTED : ExitCodes.OK;
    }

    private static boolean anyVideoOrAudio(List<Work> work) throws IOException {
        for (Work w : work) {
            Optional<MediaKind> kind = MediaSniffer.sniff(w.path()).map(MediaType::kind);
            if (kind.isPresent() && kind.get() != MediaKind.IMAGE) {
                return true;
            }
        }
        return false;
    }

    private static int firstError(int current, int next) {
        return current != ExitCodes.OK ? current : next;
    }
}
