// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.exceptionfactory.jagged.x25519.X25519KeyPairGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** Share bundles written encrypted and opened with an identity: never in the clear on disk but briefly, owner-only. */
class EncryptedBundleTest {
    @TempDir
    Path tmp;

    private static final Path TEMP = Path.of(System.getProperty("java.io.tmpdir"));

    private static Set<Path> decryptedTemps() throws IOException {
        try (Stream<Path> s = Files.list(TEMP)) {
            return new HashSet<>(s.filter(p -> p.getFileName().toString().startsWith(".tmp-bundle-")).toList());
        }
    }

    private Path proofFolder() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("proof"));
        Files.writeString(folder.resolve("abc.proof.json"), "{\"File Hash SHA256\":\"abc\"}");
        Files.writeString(folder.resolve("pubkey.asc"), "key");
        return folder;
    }

    private Path identityFile(KeyPair pair) throws IOException {
        return Files.writeString(tmp.resolve("desk.key"), "# public key: " + pair.getPublic() + "\n" + pair.getPrivate() + "\n");
    }

    @Test
    void encryptedWrite_decryptsToThePlainBundle_throughAnOwnerOnlyTempDeletedOnClose() throws Exception {
        KeyPair desk = new X25519KeyPairGenerator().generateKeyPair();
        List<BundleWriter.Item> items = List.of(new BundleWriter.Item(proofFolder(), Optional.empty()));
        Path plain = tmp.resolve("share.zip");
        Path sealed = tmp.resolve("share.zip.age");
        BundleWriter.write(items, plain, false);
        BundleWriter.write(items, sealed, false, Optional.of(Age.encryptionTo(List.of(desk.getPublic().toString()))));
        assertThat(Age.isAge(sealed)).isTrue();
        assertThat(new String(Files.readAllBytes(sealed), StandardCharsets.ISO_8859_1)).doesNotContain("File Hash SHA256");

        assertThatThrownBy(() -> Bundle.open(sealed, BundleLimits.DEFAULT)).isInstanceOfSatisfying(ProofModeException.class,
                e -> assertThat(e.getMessage()).contains("--identity"));
        Set<Path> before = decryptedTemps();
        try (Identities ids = Age.readIdentities(List.of(identityFile(desk)))) {
            Bundle b = Bundle.open(sealed, BundleLimits.DEFAULT, ids);
            Set<Path> made = decryptedTemps();
            made.removeAll(before);
            assertThat(made).hasSize(1);
            Path temp = made.iterator().next();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp))).isEqualTo("rw-------");
            assertThat(Files.readAllBytes(temp)).isEqualTo(Files.readAllBytes(plain));
            assertThat(b.source()).isEqualTo(sealed.toString());
            assertThat(b.entries()).extracting(BundleEntry::name).contains("abc.proof.json", "pubkey.asc");
            try (InputStream in = b.entries().get(0).open()) {
                assertThat(in.readAllBytes()).isNotEmpty();
            }
            b.close();
            assertThat(temp).doesNotExist();
        }
        assertThat(decryptedTemps()).isSubsetOf(before);
    }

    @Test
    void aBundleThatDoesNotOpen_leavesNoTempBehind() throws Exception {
        KeyPair desk = new X25519KeyPairGenerator().generateKeyPair();
        KeyPair other = new X25519KeyPairGenerator().generateKeyPair();
        Path sealed = tmp.resolve("share.zip.age");
        BundleWriter.write(List.of(new BundleWriter.Item(proofFolder(), Optional.empty())), sealed, false,
                Optional.of(Age.encryptionTo(List.of(other.getPublic().toString()))));
        byte[] bytes = Files.readAllBytes(sealed);
        Path truncated = Files.write(tmp.resolve("truncated.zip.age"), java.util.Arrays.copyOf(bytes, bytes.length - 20));
        Path notZip = tmp.resolve("not-a-zip.age");
        try (OutputStream out = Age.encrypt(Files.newOutputStream(notZip), List.of(desk.getPublic().toString()))) {
            out.write("not a zip".getBytes(StandardCharsets.US_ASCII));
        }
        Set<Path> before = decryptedTemps();
        try (Identities ids = Age.readIdentities(List.of(identityFile(desk)))) {
            assertThatThrownBy(() -> Bundle.open(sealed, BundleLimits.DEFAULT, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
            assertThatThrownBy(() -> Bundle.open(notZip, BundleLimits.DEFAULT, ids)).isInstanceOfSatisfying(ProofModeException.class, e -> {
                assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
                assertThat(e.getMessage()).startsWith(notZip.toString());
            });
        }
        try (Identities ids = Age.readIdentities(List.of(Files.writeString(tmp.resolve("other.key"), other.getPrivate() + "\n")))) {
            assertThatThrownBy(() -> Bundle.open(truncated, BundleLimits.DEFAULT, ids)).isInstanceOfSatisfying(ProofModeException.class,
                    e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
        }
        assertThat(decryptedTemps()).isSubsetOf(before);
    }
}
