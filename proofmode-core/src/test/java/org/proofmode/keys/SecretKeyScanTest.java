// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgpainless.PGPainless;
import org.pgpainless.key.protection.SecretKeyRingProtector;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.prove.ProveResult;

/**
 * After every key operation, and after proving into the home's proof store and exporting a share bundle,
 * reads every file under the home (and every entry of a zip): no secret key may be stored unencrypted, and
 * no secret key material nor passphrase may appear in plain anywhere it should not.
 */
class SecretKeyScanTest {
    @TempDir
    Path home;

    @TempDir
    Path elsewhere;

    private final List<byte[]> secrets = new ArrayList<>();

    @Test
    void keyOperations_leaveNoPlainSecret_createRotateImportChange() {
        DeviceKeys keys = new DeviceKeys(home);

        keys.create(KeyType.ED25519, Optional.of(TestHomes.passphrase()));
        rememberSecretOf(keys.unlock(TestHomes.passphrase()));
        scan(keys, "correct horse battery staple");

        keys.rotate(KeyType.ED25519, Optional.empty());
        String generated = new String(keys.storedPassphrase().orElseThrow().chars());
        rememberSecretOf(keys.unlock(keys.storedPassphrase().orElseThrow()));
        scan(keys, generated);

        keys.changePassphrase(keys.storedPassphrase().orElseThrow(), Passphrase.adopt("changed once".toCharArray()));
        assertThat(keys.passphraseFile()).doesNotExist();
        scan(keys, "changed once");

        PGPSecretKeyRing plain = KeyFixtures.pgpainlessKey();
        secrets.addAll(KeyFixtures.secretMaterial(plain, SecretKeyRingProtector.unprotectedKeys()));
        keys.importKey(KeyFixtures.armored(plain), "plain.asc", Optional.empty(), Optional.empty(), true);
        scan(keys, new String(keys.storedPassphrase().orElseThrow().chars()));

        PGPSecretKeyRing locked = KeyFixtures.pgpainlessKey("import secret");
        secrets.addAll(KeyFixtures.secretMaterial(locked,
                SecretKeyRingProtector.unlockAnyKeyWith(new org.pgpainless.util.Passphrase("import secret".toCharArray()))));
        keys.importKey(KeyFixtures.armored(locked), "locked.asc", Optional.of(Passphrase.adopt("import secret".toCharArray())),
                Optional.of(Passphrase.adopt("stored with this".toCharArray())), true);
        assertThat(keys.passphraseFile()).doesNotExist();
        scan(keys, "stored with this");

        assertThat(keys.allCertificates()).hasSize(4);
    }

    @Test
    void wipe_removesEveryKeyFile_afterRotation() {
        DeviceKeys keys = new DeviceKeys(home);
        keys.create(KeyType.ED25519, Optional.empty());
        rememberSecretOf(keys.unlock(keys.storedPassphrase().orElseThrow()));

        keys.wipe();

        assertThat(home.resolve("keys")).doesNotExist();
        assertThat(keys.exists()).isFalse();
        scan(keys, "no passphrase stored");
    }

    @Test
    void proveAndExport_leaveNoPlainSecret_proofStoreAndShareBundle() throws IOException {
        ProofMode pm = ProofMode.at(home);
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        rememberSecretOf(key);
        Path media = TestHomes.jpegLike(elsewhere.resolve("photo.jpg"), 8, 500);
        ProveResult proved = TestHomes.prove(pm, key, media);
        Path folder = proved.proofFolder().orElseThrow();
        assertThat(folder).startsWith(home.resolve("proofs"));
        BundleWriter.write(List.of(new BundleWriter.Item(folder, Optional.of(media))), home.resolve("share.zip"), false);

        scan(pm.keys(), "correct horse battery staple");
        assertThat(files()).contains(home.resolve("share.zip"), folder.resolve("pubkey.asc"));
    }

    private void rememberSecretOf(SigningKey key) {
        secrets.add(key.privateKey().getPrivateKeyDataPacket().getEncoded());
    }

    /**
     * Reads every file under the home (armor undone where it parses): secret key rings are all
     * encrypted; no remembered secret material appears; the passphrase appears in no file but the
     * generated-passphrase file.
     */
    private void scan(DeviceKeys keys, String passphrase) {
        byte[] pp = passphrase.getBytes(StandardCharsets.UTF_8);
        int secretRings = 0;
        for (Path f : files()) {
            for (byte[] raw : contents(f)) {
                byte[] binary = dearmorOrSame(raw);
                for (byte[] secret : secrets) {
                    assertThat(contains(raw, secret) || contains(binary, secret)).as("secret material in %s", f).isFalse();
                }
                if (!f.equals(keys.passphraseFile())) {
                    assertThat(contains(raw, pp) || contains(binary, pp)).as("passphrase in %s", f).isFalse();
                }
                for (PGPSecretKeyRing ring : secretRingsIn(raw)) {
                    KeyFixtures.assertEncrypted(ring);
                    secretRings++;
                }
            }
        }
        assertThat(secretRings).as("secret key rings found").isEqualTo(keys.exists() ? 1 : 0);
        if (keys.exists()) {
            assertThat(contains(read(keys.secretFile()), pp)).isFalse();
        }
    }

    private List<Path> files() {
        try (Stream<Path> walk = Files.walk(home)) {
            return walk.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file's bytes and, for a zip (a share bundle), each entry's bytes, which the zip may hold compressed. */
    private static List<byte[]> contents(Path f) {
        List<byte[]> out = new ArrayList<>(List.of(read(f)));
        if (f.getFileName().toString().endsWith(".zip")) {
            try (ZipFile zip = new ZipFile(f.toFile())) {
                for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                    try (InputStream in = zip.getInputStream(e)) {
                        out.add(in.readAllBytes());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static List<PGPSecretKeyRing> secretRingsIn(byte[] bytes) {
        List<PGPSecretKeyRing> out = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            PGPainless.readKeyRing().keyRingCollection(in, false).getPgpSecretKeyRingCollection().forEach(out::add);
        } catch (Exception e) { // IOException, or a PGPException PGPainless throws undeclared (a signature file)
            // not key material
        }
        return out;
    }

    private static byte[] dearmorOrSame(byte[] bytes) {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return bytes;
        }
    }

    private static byte[] read(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
