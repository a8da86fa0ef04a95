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
    static final Path JPEG = TestHomes.samples().resolve("c2pa/no_manifest.jpg");
    static final Path PNG = TestHomes.samples().resolve("c2pa/libpng-test.png");

    private static Path sharedHome;
    private static C2paSigner shared;

    private C2paFixtures() {}

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
