// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.proofmode.ProofMode;
import org.proofmode.collect.CollectLimits;
import org.proofmode.collect.CollectedFrom;
import org.proofmode.collect.CollectionArchive;
import org.proofmode.collect.CollectionRecord;
import org.proofmode.collect.Collector;
import org.proofmode.context.MetadataSource;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import org.proofmode.testkit.HttpsSite;
import org.proofmode.util.Http;

/** Collection archives ({@code proofmode collect}, as {@code publish} sends them) of pages on an HTTPS site on loopback. */
final class TestCollections {
    private TestCollections() {}

    /**
     * Collects a page with this title and one PNG from the site, proves the PNG with the signer, and writes
     * the archive with the proof beside it.
     *
     * @param path the page's path on the site (served by this call)
     * @param seed makes the PNG and so the archive distinct
     */
    static Path archive(ProofMode signer, HttpsSite site, Path dir, String path, String title, int seed) throws IOException {
        return archive(signer, site, dir, path, title, seed, "");
    }

    /** As {@link #archive(ProofMode, HttpsSite, Path, String, String, int)}, with {@code filler} in the page's body. */
    static Path archive(ProofMode signer, HttpsSite site, Path dir, String path, String title, int seed, String filler) throws IOException {
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        img.setRGB(seed % 8, (seed / 8) % 8, 0x00FF00 + seed);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(img, "png", png);
        site.bytes(path + "/photo.png", "image/png", png.toByteArray()).bytes(path, "text/html; charset=utf-8",
                ("<html><head><title>" + title + "</title></head><body><img src=\"" + path + "/photo.png\">" + filler + "</body></html>")
                        .getBytes(StandardCharsets.UTF_8));
        SigningKey key = signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray()));
        Collector collector = new Collector(new Http(new Http.Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(30)), Optional.empty()),
                List.of(site.ca()), CollectLimits.DEFAULT, Clock.systemUTC());
        Path folder = dir.resolve("collection-" + seed);
        Collector.Result r = collector.collect(site.uri(path), folder, key, new Collector.Options(Optional.of("test"), Optional.empty()));
        CollectedFrom from = new CollectedFrom(r);
        List<MetadataSource> sources = new java.util.ArrayList<>(ProofMode.defaultSources());
        sources.add(from);
        Prover prover = signer.prover(key, signer.store(), sources);
        Map<String, Map<String, byte[]>> proofs = new TreeMap<>();
        for (Path m : from.files()) {
            ProveResult p = prover.prove(m, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
            proofs.put(p.sha256().orElseThrow(), signer.store().files(p.sha256().orElseThrow()).orElseThrow());
        }
        Path zip = dir.resolve("collection-" + seed + ".zip");
        CollectionArchive.write(folder, proofs, zip);
        return zip;
    }

    /** The archive's bytes with one byte of its WARC changed: a collection that verifies INVALID. */
    static byte[] withWarcChanged(Path zip) throws IOException {
        Map<String, byte[]> entries = TestBundles.entries(zip);
        byte[] warc = entries.get(CollectionRecord.WARC).clone();
        warc[warc.length / 2] ^= 0x01;
        entries.put(CollectionRecord.WARC, warc);
        return TestBundles.zip(entries);
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }
}
