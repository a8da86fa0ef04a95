// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.proofmode.ProofMode;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.context.ImageHashSource;
import org.proofmode.context.MetadataSource;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;

/** Bundles made for the tests: real proofs by a fresh key, and hostile archives. */
final class TestBundles {
    private TestBundles() {}

    /** A signer home with an Ed25519 key. */
    static ProofMode signer(Path home) {
        ProofMode pm = ProofMode.at(home);
        pm.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("test passphrase".toCharArray())));
        return pm;
    }

    /**
     * A share zip of a new PNG proved, without a place, by a new Ed25519 key in {@code dir}: a bundle whose
     * signer the server does not know, so it verifies VALID. Asked again for the same folder, it returns the
     * bundle made the first time.
     */
    static Path good(Path dir) throws IOException {
        Path made = dir.resolve("bundle-1.zip");
        if (Files.isRegularFile(made)) {
            return made;
        }
        Files.createDirectories(dir);
        return prove(signer(dir.resolve("signer-home")), dir, 1, List.of());
    }

    /**
     * The bytes of {@link #good(Path)}'s bundle with one byte of its photo changed after proving: a bundle
     * that verifies INVALID.
     */
    static byte[] alteredPhoto(Path dir) throws IOException {
        Map<String, byte[]> entries = entries(good(dir));
        byte[] photo = entries.get("photo-1.png").clone();
        photo[photo.length / 2] ^= 0x01;
        entries.put("photo-1.png", photo);
        return zip(entries);
    }

    /** A share zip of a new PNG proved at a place by the signer. */
    static Path located(ProofMode signer, Path dir, int seed, double lat, double lon) throws IOException {
        return located(signer, dir, seed, lat, lon, Optional.empty());
    }

    /** A share zip of a new PNG proved at a place, with the accuracy of the fix in metres, by the signer. */
    static Path located(ProofMode signer, Path dir, int seed, double lat, double lon, Optional<Double> accuracy)
            throws IOException {
        MetadataSource place = new MetadataSource() {
            @Override
            public String name() {
                return "TestPlace";
            }

            @Override
            public void contribute(MediaFile m, ProofRecord.Builder record) {
                record.put(ProofFields.LOCATION_LATITUDE, Double.toString(lat));
                record.put(ProofFields.LOCATION_LONGITUDE, Double.toString(lon));
                record.put(ProofFields.LOCATION_PROVIDER, "manual");
                accuracy.ifPresent(a -> record.put(ProofFields.LOCATION_ACCURACY, Double.toString(a)));
            }
        };
        return prove(signer, dir, seed, List.of(place));
    }

    /** A share zip of a new PNG proved by the signer with its pixel and perceptual hashes. */
    static Path withImageHashes(ProofMode signer, Path dir, int seed) throws IOException {
        Files.createDirectories(dir);
        return prove(signer, dir, seed, List.of(new ImageHashSource()));
    }

    /** A share zip of a new PNG named {@code fileName}, proved with these notes by the signer. */
    static Path named(ProofMode signer, Path dir, int seed, String fileName, String notes) throws IOException {
        Files.createDirectories(dir);
        Path media = dir.resolve(fileName);
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        img.setRGB(seed % 8, (seed / 8) % 8, 0xFF0000 + seed);
        ImageIO.write(img, "png", media.toFile());
        SigningKey key = signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray()));
        ProveResult r = signer.prover(key, signer.store(), ProofMode.defaultSources())
                .prove(media, new Prover.Options(Optional.of(notes), false, StreamSigner.Progress.NONE));
        Path zip = dir.resolve("bundle-" + seed + ".zip");
        BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(media))), zip, false);
        return zip;
    }

    /** A share zip of a new PNG proved by the signer with the default metadata sources and the given ones. */
    private static Path prove(ProofMode signer, Path dir, int seed, List<MetadataSource> more) throws IOException {
        Path media = dir.resolve("photo-" + seed + ".png");
        BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
        img.setRGB(seed % 8, (seed / 8) % 8, 0xFF0000 + seed);
        ImageIO.write(img, "png", media.toFile());
        List<MetadataSource> sources = new ArrayList<>(ProofMode.defaultSources());
        sources.addAll(more);
        SigningKey key = signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray()));
        Prover p = signer.prover(key, signer.store(), sources);
        ProveResult r = p.prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
        Path zip = dir.resolve("bundle-" + seed + ".zip");
        BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(media))), zip, false);
        return zip;
    }

    /** The entries of a zip, in order. */
    static Map<String, byte[]> entries(Path zip) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    out.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return out;
    }

    /** A zip of the given entries. */
    static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }
}
