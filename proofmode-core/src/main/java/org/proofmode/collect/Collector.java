// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.prove.Prover;
import org.proofmode.sign.Signed;
import org.proofmode.sign.StreamSigner;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Http;
import org.proofmode.util.SafeText;

/**
 * Collects one web page and the media it embeds into a new collection folder: the WARC, the TLS chain,
 * the media files, the collection record and its signature, the WARC's signature and the collector's
 * public key. Everything is written into a staging folder beside the target and moved into place at the
 * end, so a collection that fails leaves nothing behind. The media's proofs and any time-stamps are made
 * by the caller afterwards ({@code proofmode collect} proves them like any media).
 *
 * <p>Security: everything the page sent is untrusted: its title is escaped wherever this class writes it
 * as text, file names of media are made here (a number and a cleaned extension), never taken from the page.
 */
public final class Collector {
    /** The signature of the WARC, beside it. */
    public static final String WARC_SIGNATURE = CollectionRecord.WARC + ".asc";
    /** The collector's public key. */
    public static final String PUBKEY = "pubkey.asc";

    private final Http http;
    private final List<X509Certificate> extraRoots;
    private final CollectLimits limits;
    private final Clock clock;

    /**
     * Options from the collector.
     *
     * @param purpose why the page is collected
     * @param notes free notes
     */
    public record Options(Optional<String> purpose, Optional<String> notes) {
        /** Validates the fields. */
        public Options {
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(notes, "notes");
        }
    }

    /**
     * A collection in place.
     *
     * @param folder the collection folder
     * @param record its record
     * @param recordSha256 the record's SHA-256 (its signature is {@code <h>.asc})
     */
    public record Result(Path folder, CollectionRecord record, String recordSha256) {}

    /**
     * A collector.
     *
     * @param http the client whose rules (proxy, names) every connection follows
     * @param extraRoots CAs trusted for the page's TLS besides the platform's
     * @param limits the bounds
     * @param clock the clock
     */
    public Collector(Http http, List<X509Certificate> extraRoots, CollectLimits limits, Clock clock) {
        this.http = Objects.requireNonNull(http, "http");
        this.extraRoots = List.copyOf(extraRoots);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Collects a page into {@code target}, which must not exist.
     *
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the target exists,
     *     {@link Failure#SERVICE_UNREACHABLE} if the page cannot be reached, answers an error, or redirects
     *     more than the bound, {@link Failure#IO} if the folder cannot be written
     */
    public Result collect(URI url, Path target, SigningKey key, Options options) {
        if (Files.exists(target)) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, target + ": exists already (collect never overwrites)");
        }
        Path parent = target.toAbsolutePath().getParent();
        Path staging;
        try {
            Files.createDirectories(parent);
            staging = Files.createTempDirectory(parent, ".collect-");
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, parent + ": cannot write (" + e.getMessage() + ")", e);
        }
        try {
            Result r = collectInto(url, staging, target, key, options);
            AtomicFiles.moveAtomic(staging, target, false);
            return r;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, target + ": cannot write (" + e + ")", e);
        } finally {
            deleteTree(staging);
        }
    }

    private Result collectInto(URI url, Path staging, Path target, SigningKey key, Options options) throws IOException {
        Fetcher fetcher = new Fetcher(http, extraRoots, limits, clock);
        Path bodies = Files.createDirectory(staging.resolve(".bodies"));
        Instant started = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        List<Exchange> page = follow(fetcher, url, bodies, "page");
        Exchange last = page.get(page.size() - 1);
        if (last.status() >= 400) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, SafeText.escape(last.uri().toString())
                    + ": the server answered HTTP " + last.status() + "; nothing was collected");
        }
        Page parsed = Page.isHtml(last.contentType()) && last.cut() == Exchange.Cut.NONE && last.length() <= Page.MAX_PARSED_BYTES
                ? Page.read(last.body(), last.uri()) : new Page(Optional.empty(), List.of());
        List<CollectionRecord.MediaEntry> media = new ArrayList<>();
        List<CollectionRecord.Skipped> skipped = new ArrayList<>();
        if (Page.isHtml(last.contentType()) && (last.cut() != Exchange.Cut.NONE || last.length() > Page.MAX_PARSED_BYTES)) {
            skipped.add(new CollectionRecord.Skipped(last.uri().toString(), "the page was not read for media: "
                    + (last.cut() != Exchange.Cut.NONE ? "it was cut at a bound" : "larger than " + Page.MAX_PARSED_BYTES + " bytes")));
        }
        Path mediaDir = Files.createDirectory(staging.resolve(CollectionRecord.MEDIA));
        List<CollectionRecord.Entry> entries;
        try (WarcOut warc = new WarcOut(staging.resolve(CollectionRecord.WARC))) {
            for (Exchange x : page) {
                warc.write(x);
            }
            int n = 0;
            for (URI m : parsed.media()) {
                if (n >= limits.maxMedia()) {
                    skipped.add(new CollectionRecord.Skipped(m.toString(), "more than " + limits.maxMedia() + " media on the page"));
                    continue;
                }
                n++;
                List<Exchange> got;
                try {
                    got = follow(fetcher, m, bodies, "media" + n);
                } catch (ProofModeException e) {
                    if (e.failure() == Failure.IO) {
                        throw e;
                    }
                    skipped.add(new CollectionRecord.Skipped(m.toString(), e.getMessage()));
                    continue;
                }
                String id = "";
                for (Exchange x : got) {
                    id = warc.write(x);
                }
                // Each body leaves the staging folder once kept: the disk holds one bounded body at a time.
                for (Exchange x : got.subList(0, got.size() - 1)) {
                    Files.deleteIfExists(x.body());
                }
                Exchange end = got.get(got.size() - 1);
                if (end.status() / 100 != 2 || end.cut() != Exchange.Cut.NONE) {
                    Files.deleteIfExists(end.body());
                    skipped.add(new CollectionRecord.Skipped(m.toString(), end.cut() != Exchange.Cut.NONE
                            ? "cut at the bound (" + end.cut().name().toLowerCase(Locale.ROOT) + "); kept in the WARC only"
                            : "HTTP " + end.status()));
                    continue;
                }
                String name = String.format(Locale.ROOT, "%02d%s", n, MediaNames.extension(end.uri(), end.contentType()));
                Files.move(end.body(), mediaDir.resolve(name));
                media.add(new CollectionRecord.MediaEntry(CollectionRecord.MEDIA + "/" + name, m.toString(), end.sha256(), id));
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("software", Prover.SOFTWARE);
            fields.put("collector", key.info().fingerprint());
            parsed.title().ifPresent(t -> fields.put("title", t));
            options.purpose().ifPresent(p -> fields.put("purpose", p));
            options.notes().ifPresent(p -> fields.put("notes", p));
            warc.metadata(last.uri(), started, fields);
            entries = warc.entries();
        }
        CollectionRecord.Tls tls = last.chain().isEmpty() ? null : writeChain(last.chain(), staging.resolve(CollectionRecord.CHAIN));
        Path warcFile = staging.resolve(CollectionRecord.WARC);
        Signed warcSig;
        try (var in = Files.newInputStream(warcFile)) {
            warcSig = StreamSigner.sign(key, in, started, StreamSigner.Progress.NONE);
        }
        Files.writeString(staging.resolve(WARC_SIGNATURE), warcSig.armoredSignature(), StandardCharsets.US_ASCII);
        CollectionRecord record = new CollectionRecord(CollectionRecord.FORMAT, url.toString(), last.uri().toString(),
                parsed.title().orElse(null), started.toString(), Prover.SOFTWARE, key.info().fingerprint(),
                "HTTP/1.1 GET" + http.proxy().map(p -> " through the proxy " + p.url()).orElse(", direct"),
                options.purpose().orElse(null), options.notes().orElse(null),
                last.address().map(a -> a.getHostAddress()).orElse(null), tls,
                new CollectionRecord.FileDigest(CollectionRecord.WARC, warcSig.sha256()), entries, media, skipped);
        byte[] json = record.toJson();
        String h = HexFormat.of().formatHex(Digests.newSha256().digest(json));
        Files.write(staging.resolve(CollectionRecord.FILE), json);
        Files.writeString(staging.resolve(h + ".asc"), StreamSigner.sign(key, json, started).armoredSignature(), StandardCharsets.US_ASCII);
        Files.write(staging.resolve(PUBKEY), OpenPgpKeys.armor(key.certificate()));
        deleteTree(bodies);
        return new Result(target, record, h);
    }

    /** Fetches an address and follows its redirects up to the bound. */
    private List<Exchange> follow(Fetcher fetcher, URI start, Path bodies, String name) {
        List<Exchange> out = new ArrayList<>();
        URI next = start;
        while (true) {
            Exchange x = fetcher.fetch(next, bodies.resolve(name + "-" + out.size()));
            out.add(x);
            if (!x.isRedirect()) {
                return out;
            }
            if (out.size() > limits.maxRedirects()) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, SafeText.escape(start.toString()) + ": more than "
                        + limits.maxRedirects() + " redirects (a loop?); nothing was collected");
            }
            try {
                next = x.uri().resolve(x.location().orElseThrow().trim());
            } catch (IllegalArgumentException e) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, SafeText.escape(x.uri().toString())
                        + ": redirects to a malformed address", e);
            }
            String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, SafeText.escape(x.uri().toString())
                        + ": redirects to a non-http(s) address");
            }
        }
    }

    private static CollectionRecord.Tls writeChain(List<X509Certificate> chain, Path file) throws IOException {
        StringBuilder pem = new StringBuilder();
        Base64.Encoder b64 = Base64.getMimeEncoder(64, new byte[] {'\n'});
        try {
            for (X509Certificate c : chain) {
                pem.append("-----BEGIN CERTIFICATE-----\n").append(b64.encodeToString(c.getEncoded())).append("\n-----END CERTIFICATE-----\n");
            }
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
            X509Certificate leaf = chain.get(0);
            return new CollectionRecord.Tls(CollectionRecord.CHAIN, leaf.getSubjectX500Principal().getName(),
                    leaf.getIssuerX500Principal().getName(), HexFormat.of().formatHex(Digests.newSha256().digest(leaf.getEncoded())),
                    chain.size());
        } catch (CertificateEncodingException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the server's certificate cannot be encoded: " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a staging folder left behind is named .collect-* and holds no secret
        }
    }
}
