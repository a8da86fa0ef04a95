// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;

/** Helpers shared by core tests. */
public final class TestHomes {
    private static ProofMode sharedRsaHome;

    private TestHomes() {}

    /**
     * The third-party sample folder, found as {@code org.proofmode.testkit.Samples} finds it (which this
     * module cannot depend on): {@code -Dproofmode.samples}, {@code PROOFMODE_SAMPLES}, then
     * {@code ../shared/samples} beside the repository ({@code proofmode.root}), then its
     * {@code target/samples}. It must exist: tests fail rather than skip without it.
     */
    public static Path samples() {
        Optional<String> named = Optional.ofNullable(System.getProperty("proofmode.samples")).filter(p -> !p.isBlank())
                .or(() -> Optional.ofNullable(System.getenv("PROOFMODE_SAMPLES")).filter(p -> !p.isBlank()));
        if (named.isPresent()) {
            Path dir = Path.of(named.get()).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException("sample folder missing: " + dir);
            }
            return dir;
        }
        String root = System.getProperty("proofmode.root");
        if (root == null) {
            throw new IllegalStateException("no sample folder: set PROOFMODE_SAMPLES=DIR, or run the tests with Maven");
        }
        Path repo = Path.of(root).toAbsolutePath().normalize();
        for (Path dir : java.util.List.of(repo.resolveSibling("shared").resolve("samples"), repo.resolve("target/samples"))) {
            if (Files.isDirectory(dir)) {
                return dir;
            }
        }
        throw new IllegalStateException("no third-party sample folder beside " + repo + " nor in its target/samples; run "
                + repo.resolve("testdata/fetch-samples") + " or set PROOFMODE_SAMPLES=DIR");
    }

    /**
     * The repository's own photo, {@code examples/photo.jpg}: a 2048×1536 baseline JPEG test pattern with
     * camera-style EXIF fields, made for the repository (see {@code examples/README.md}). The repository is
     * the system property {@code proofmode.root}, which the build sets.
     */
    public static Path examplePhoto() {
        String root = System.getProperty("proofmode.root");
        if (root == null) {
            throw new IllegalStateException("no repository root: run the tests with Maven, which sets proofmode.root");
        }
        Path photo = Path.of(root).toAbsolutePath().normalize().resolve("examples").resolve("photo.jpg");
        if (!Files.isRegularFile(photo)) {
            throw new IllegalStateException("the repository's example photo is missing: " + photo);
        }
        return photo;
    }

    /**
     * Writes a PNG drawn here: an RGB gradient of the given size with a pattern that depends on
     * {@code seed}, so the same seed gives the same pixels.
     */
    public static Path png(Path file, int width, int height, long seed) {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(seed);
        int tint = random.nextInt(0x1000000);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                img.setRGB(x, y, tint ^ ((x * 255 / width) << 16 | (y * 255 / height) << 8 | ((x + y) & 0xFF)));
            }
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (!ImageIO.write(img, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer in this Java runtime");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A URL on this machine where nothing listens: a service that cannot be reached. */
    public static URI unreachableUrl(String path) {
        try (ServerSocket s = new ServerSocket(0)) {
            return URI.create("http://127.0.0.1:" + s.getLocalPort() + path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A passphrase for tests. */
    public static Passphrase passphrase() {
        return Passphrase.adopt("correct horse battery staple".toCharArray());
    }

    /** Creates a home with a device key of the given type and returns it unlocked. */
    public static SigningKey keyIn(ProofMode pm, KeyType type) {
        pm.keys().create(type, Optional.of(passphrase()));
        return pm.keys().unlock(passphrase());
    }

    /**
     * A home with an RSA-4096 device key (protected with {@link #passphrase()}), made once per test run
     * because RSA key generation takes seconds. Callers must not change its keys; they may prove into
     * stores of their own.
     */
    public static synchronized ProofMode sharedRsaHome() {
        if (sharedRsaHome == null) {
            try {
                Path dir = Files.createTempDirectory("proofmode-rsa-home");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
                ProofMode pm = ProofMode.at(dir);
                pm.keys().create(KeyType.RSA4096, Optional.of(passphrase()));
                sharedRsaHome = pm;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sharedRsaHome;
    }

    /** The unlocked key of {@link #sharedRsaHome()}. */
    public static SigningKey sharedRsaKey() {
        return sharedRsaHome().keys().unlock(passphrase());
    }

    /**
     * Writes a small file that sniffs as a JPEG: the JFIF magic {@code FF D8 FF E0} and a random tail.
     *
     * @param seed seeds the tail, so the same seed gives the same file
     */
    public static Path jpegLike(Path file, long seed, int tailLength) {
        byte[] bytes = new byte[4 + tailLength];
        new Random(seed).nextBytes(bytes);
        bytes[0] = (byte) 0xFF;
        bytes[1] = (byte) 0xD8;
        bytes[2] = (byte) 0xFF;
        bytes[3] = (byte) 0xE0;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Proves one file into the home's own store with the default metadata sources. */
    public static ProveResult prove(ProofMode pm, SigningKey key, Path media) {
        return pm.prover(key, pm.store(), ProofMode.defaultSources())
                .prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
    }

    /** Copies the regular files of a flat folder into a new folder. */
    public static Path copyFolder(Path from, Path to) {
        try (Stream<Path> files = Files.list(from)) {
            Files.createDirectories(to);
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName().toString()));
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a folder tree if it exists. */
    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
