// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.collect.CollectLimits;
import org.proofmode.collect.CollectedFrom;
import org.proofmode.collect.Collector;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.StampResult;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.util.Http;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode collect}: a web page and its media preserved as evidence (WARC, TLS chain, signed record). */
@Command(name = "collect", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Preserve a web page and the media it embeds as evidence.",
            "",
            "Fetches the page and its media (img, video, audio and source elements, og:image and og:video), "
                + "with bounded size, time and redirects, and writes a new collection folder: capture.warc.gz "
                + "(ISO 28500: request, response and metadata records), tls-chain.pem (the server's certificates), "
                + "collection.json (the collection record: URL, final URL, time, tool, your key's fingerprint, each "
                + "record's payload SHA-256, --purpose and --notes) signed as <h>.asc, the WARC's own signature, "
                + "your public key, and media/ with each media file, proved like any media (its proof names the page). "
                + "Everything is written into a temporary folder and moved into place at the end: a failed "
                + "collection leaves nothing. Check it later with: proofmode verify FOLDER.",
            ""},
        footer = {"", "Examples:", "  proofmode collect https://example.org/post/1",
            "  proofmode collect --out post1 --purpose 'incident 42' \\",
            "      --tsa https://freetsa.org/tsr https://example.org/post/1",
            "  proofmode collect --tor http://abc…xyz.onion/page    (never looked up here)",
            "",
            "A page that cannot be reached (dead link, refused TLS, an HTTP error, more",
            "redirects than --max-redirects, no answer within --timeout) exits 47 with one",
            "line on stderr, and nothing is written. An --out folder that exists exits 59;",
            "an .onion address without --tor or --proxy exits 83, before any look-up.",
            "", ExitCodes.HELP_TABLE})
final class CollectCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Mixin
    KeyOptions keyOptions;

    @Mixin
    TimestampOptions timestampOptions;

    @Option(names = "--out", paramLabel = "DIR", description = "The collection folder (must not exist); with several URLs, "
            + "the folder they are collected under (default: collection-HOST-TIME in the current folder).")
    Path out;

    @Option(names = "--ca", paramLabel = "CA.pem", description = "Also trust this CA for the page's TLS (repeatable), "
            + "besides the system's roots.")
    List<Path> ca = new ArrayList<>();

    @Option(names = "--purpose", paramLabel = "TEXT", description = "Why the page is collected (recorded in the collection record).")
    String purpose;

    @Option(names = "--notes", paramLabel = "TEXT", description = "Free notes recorded in the collection record.")
    String notes;

    @Option(names = "--max-bytes", paramLabel = "N", description = "Bytes kept of one response at most; a longer body is cut "
            + "there and marked truncated (default: 268435456, 256 MiB).")
    long maxBytes = CollectLimits.DEFAULT.maxBytes();

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Longest time of one exchange, body included; "
            + "a body still arriving is cut and marked truncated (default: 120).")
    long timeoutSeconds = CollectLimits.DEFAULT.timeout().toSeconds();

    @Option(names = "--max-redirects", paramLabel = "N", description = "Redirects followed at most (default: 10).")
    int maxRedirects = CollectLimits.DEFAULT.maxRedirects();

    @Option(names = "--max-media", paramLabel = "N", description = "Media fetched from the page at most; more are listed "
            + "as skipped (default: 100).")
    int maxMedia = CollectLimits.DEFAULT.maxMedia();

    @Option(names = "--json", description = "Print one JSON object per page: {\"url\", \"folder\", \"record\", \"media\", \"title\"}.")
    boolean json;

    @Parameters(paramLabel = "URL", arity = "1..*", description = "The pages (http or https).")
    List<URI> urls;

    @Override
    public Integer call() {
        CliContext ctx = root.ctx;
        CollectLimits limits = limits();
        for (URI u : urls) {
            String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!s.equals("http") && !s.equals("https") || u.getHost() == null) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, SafeText.escape(u.toString()) + ": not an http(s) URL");
            }
        }
        ProofMode pm = StoreAccess.reading(ctx, root.proofMode(), keyOptions.passphraseFile);
        Optional<Http.Socks> proxy = timestampOptions.proxy.choose(pm.settings());
        List<X509Certificate> roots = new ArrayList<>();
        ca.forEach(p -> roots.addAll(TrustedRoots.read(ctx.resolve(p))));
        SigningKey key = DeviceKeyAccess.unlockOrCreate(ctx, pm, keyOptions);
        Collector collector = new Collector(new Http(new Http.Timeouts(Duration.ofSeconds(10), limits.timeout()), proxy), roots,
                limits, Clock.systemUTC());
        Optional<StampRequest> stamp = Optional.empty();
        Timestamps ts = null;
        if (timestampOptions.anyNamed()) {
            TimestampSettings.writeDefaultIfMissing(pm.home());
            ts = timestampOptions.timestamps(pm);
            stamp = timestampOptions.asked(pm.home(), ts.settings(), false);
        }
        int exit = ExitCodes.OK;
        for (int i = 0; i < urls.size(); i++) {
            URI u = urls.get(i);
            Path target = target(ctx, u, i);
            Collector.Result r = collector.collect(u, target, key,
                    new Collector.Options(Optional.ofNullable(purpose), Optional.ofNullable(notes)));
            List<StampResult> stamps = new ArrayList<>();
            if (stamp.isPresent()) {
                stamps.addAll(ts.stamp(target, r.recordSha256(), stamp.get()));
            }
            CollectedFrom from = new CollectedFrom(r);
            List<MetadataSource> sources = new ArrayList<>(ProofMode.defaultSources());
            sources.add(from);
            Prover prover = pm.prover(key, pm.store(), sources);
            List<String> proved = new ArrayList<>();
            for (Path m : from.files()) {
                ProveResult p = prover.prove(m, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
                if (p.sha256().isPresent() && p.proofFolder().isPresent()) {
                    proved.add(p.sha256().get());
                    if (stamp.isPresent()) {
                        stamps.addAll(ts.stamp(p.proofFolder().get(), p.sha256().get(), stamp.get()));
                    }
                }
            }
            print(ctx, u, r, proved);
            StampPrinter.notices(ctx.err(), stamps);
            if (timestampOptions.requireTimestamp && exit == ExitCodes.OK) {
                exit = StampPrinter.exit(stamps, true);
            }
        }
        return exit;
    }

    private CollectLimits limits() {
        if (maxBytes < 1 || timeoutSeconds < 1 || maxRedirects < 0 || maxMedia < 0) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--max-bytes and --timeout must be positive, --max-redirects and --max-media not negative");
        }
        return new CollectLimits(maxBytes, Duration.ofSeconds(timeoutSeconds), maxRedirects, maxMedia);
    }

    private Path target(CliContext ctx, URI u, int i) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(java.time.Instant.now()
                .truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
        String name = "collection-" + u.getHost().replaceAll("[^A-Za-z0-9.-]", "_") + "-" + stamp + (urls.size() > 1 ? "-" + (i + 1) : "");
        if (out == null) {
            return ctx.resolve(Path.of(name));
        }
        return urls.size() == 1 ? ctx.resolve(out) : ctx.resolve(out).resolve(name);
    }

    private void print(CliContext ctx, URI u, Collector.Result r, List<String> proved) {
        if (json) {
            JsonOut.println(ctx.out(), JsonOut.object().put("url", u.toString()).put("folder", r.folder().toString())
                    .put("record", r.recordSha256()).put("media", String.join(",", proved))
                    .put("title", r.record().title() == null ? "" : r.record().title()));
            return;
        }
        ctx.out().println("collected " + SafeText.escape(r.record().finalUrl()) + " into " + r.folder());
        if (r.record().title() != null) {
            ctx.out().println("  title: " + SafeText.escape(r.record().title()));
        }
        ctx.out().println("  record: " + r.recordSha256() + " (signed), " + r.record().records().size() + " WARC records, "
                + r.record().media().size() + " media proved" + (r.record().skipped().isEmpty() ? ""
                : ", " + r.record().skipped().size() + " skipped (see collection.json)"));
    }
}
