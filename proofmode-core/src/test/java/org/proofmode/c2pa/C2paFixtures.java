// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.TestHomes;
import org.proofmode.keys.Passphrase;

/** Signed test assets made with a local CA in a temporary home. */
final class C2paFixtures {
    /** A JPEG without content credentials: the repository's own photo. */
    static final Path JPEG = TestHomes.examplePhoto();
    /** A PNG without content credentials, drawn for the test run. */
    static final Path PNG = drawnPng();

    private static Path sharedHome;
    private static C2paSigner shared;

    private C2paFixtures() {}

    private static Path drawnPng() {
        try {
            Path dir = Files.createTempDirectory("c2pa-png");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TestHomes.deleteTree(dir)));
            return TestHomes.png(dir.resolve("drawn.png"), 320, 240, 1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One local CA for the whole test run (creating one costs seconds of key derivation). */
    static synchronized C2paSigner shared() {
        if (shared == null) {
            try {
                sharedHome = Files.createTempDirectory("c2pa-ca");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            shared = signer(sharedHome);
        }
        return shared;
    }

    /** The home of {@link #shared()}'s CA. */
    static synchronized Path sharedHome() {
        shared();
        return sharedHome;
    }

    /** A local CA in {@code home} (created on first use), unlocked. */
    static C2paSigner signer(Path home) {
        LocalCa ca = new LocalCa(home);
        if (!ca.exists()) {
            ca.create(passphrase(), "TEST", false);
        }
        return ca.signer(passphrase());
    }

    static Passphrase passphrase() {
        return Passphrase.adopt("correct horse".toCharArray());
    }

    /** The asset signed with a {@code c2pa.created} manifest. */
    static byte[] created(Path asset, C2paSigner signer) throws IOException, C2paFormatException {
        return new ManifestBuilder().title(asset.getFileName().toString()).created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(Files.readAllBytes(asset), signer, Optional.empty());
    }

    /** The index of the first occurrence of an ASCII text in the bytes. */
    static int indexOf(byte[] hay, String text) {
        return indexOf(hay, text, 0);
    }

    /** The index of the first occurrence of an ASCII text at or after {@code from}. */
    static int indexOf(byte[] hay, String text, int from) {
        byte[] n = text.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = from; i + n.length <= hay.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (hay[i + j] != n[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException(text + " not found");
    }
}
