// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.Gpg.KeyAlgorithm;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Tamper;

/**
 * GnuPG signs, we verify: bundles whose three signatures were made by {@code gpg --detach-sign --armor}
 * with a gpg-generated key, and whose {@code pubkey.asc} is gpg's export. The keys are generated once
 * for the class (RSA-4096 takes seconds); every test verifies in a fresh ProofMode home.
 */
class GpgSignedBundlesIT {
    @TempDir
    static Path classDir;

    private static Gpg signer;
    private static final Map<KeyAlgorithm, String> KEYS = new EnumMap<>(KeyAlgorithm.class);
    private static Path otherKey;
    private static ProofSet template;

    @TempDir
    Path dir;

    @BeforeAll
    static void generateKeysAndProof() throws IOException {
        signer = Gpg.create(classDir);
        KEYS.put(KeyAlgorithm.ED25519, signer.generateKey("Gpg Ed25519 <ed25519@example.org>", KeyAlgorithm.ED25519));
        KEYS.put(KeyAlgorithm.RSA4096, signer.generateKey("Gpg Rsa4096 <rsa4096@example.org>", KeyAlgorithm.RSA4096));
        String other = signer.generateKey("Someone Else <other@example.org>", KeyAlgorithm.ED25519);
        otherKey = classDir.resolve("other.asc");
        signer.exportPublicKey(other, otherKey);
        template = ProofSet.prove(ProofModeJar.at(classDir.resolve("home")), TestMedia.jpeg(classDir.resolve("camera"), "photo.jpg", 4));
    }

    @AfterAll
    static void stopAgent() {
        if (signer != null) {
            signer.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = KeyAlgorithm.class, names = {"ED25519", "RSA4096"})
    void verify_exits0ValidNamingGpgKey_gpgSignedFolderAndZip(KeyAlgorithm algorithm) throws IOException {
        ProofSet bundle = gpgSignedBundle(algorithm);
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));

        ProcessResult folder = pm.run("verify", bundle.folder().toString());
        assertThat(folder.exitCode()).as(folder.describe()).isZero();
        assertThat(folder.stdout()).contains(": VALID").containsPattern("signer: +" + KEYS.get(algorithm));
        for (String code : List.of("signature.media.valid", "signature.proofJson.valid", "signature.proofCsv.valid", "media.hash.match")) {
            assertThat(folder.stdout()).containsPattern("PASS +" + code.replace(".", "\\."));
        }

        ProcessResult zip = pm.run("verify", "--json", zip(bundle.folder(), dir.resolve("gpg.zip")).toString());
        assertThat(zip.exitCode()).as(zip.describe()).isZero();
        JsonReport report = JsonReport.of(zip);
        assertThat(report.verdict()).isEqualTo("VALID");
        assertThat(report.signerFingerprint()).isEqualTo(KEYS.get(algorithm));
        assertThat(report.failures()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = KeyAlgorithm.class, names = {"ED25519", "RSA4096"})
    void verify_exits0Trusted_gpgKeyGivenWithRequireTrusted(KeyAlgorithm algorithm) throws IOException {
        ProofSet bundle = gpgSignedBundle(algorithm);
        Path gpgKey = dir.resolve("gpgkey.asc");
        signer.exportPublicKey(KEYS.get(algorithm), gpgKey);

        ProcessResult r = ProofModeJar.at(dir.resolve("home"))
                .run("verify", "--trust", gpgKey.toString(), "--require-trusted", bundle.folder().toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains(": TRUSTED").containsPattern("PASS +signer\\.trusted +" + KEYS.get(algorithm));
    }

    @ParameterizedTest
    @EnumSource(value = KeyAlgorithm.class, names = {"ED25519", "RSA4096"})
    void verify_exits43_otherKeyRequiredAsTrusted(KeyAlgorithm algorithm) throws IOException {
        ProofSet bundle = gpgSignedBundle(algorithm);

        ProcessResult r = ProofModeJar.at(dir.resolve("home"))
                .run("verify", "--trust", otherKey.toString(), "--require-trusted", bundle.folder().toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(43);
        assertThat(r.stdout()).contains(": VALID");
        assertThat(r.stderr()).contains("not signed by a trusted key");
    }

    @Test
    void verify_exits3_gpgSignedBundleMediaTampered() throws IOException {
        ProofSet bundle = gpgSignedBundle(KeyAlgorithm.RSA4096);
        Tamper.flipByte(bundle.media(), 2000);

        ProcessResult r = ProofModeJar.at(dir.resolve("home")).run("verify", "--json", bundle.folder().toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(JsonReport.of(r).failures()).containsOnlyKeys("media.hash.mismatch", "signature.media.invalid");
        try (Gpg fresh = Gpg.create(dir)) {
            fresh.importKey(bundle.pubkey());
            assertThat(fresh.verify(bundle.mediaSig(), bundle.media()).exitCode()).isNotZero();
        }
    }

    @Test
    void verify_exits3_gpgSignedBundleProofJsonTampered() throws IOException {
        ProofSet bundle = gpgSignedBundle(KeyAlgorithm.ED25519);
        Tamper.flipByte(bundle.json(), Tamper.offsetOf(bundle.json(), "\"Proof.Software\":\"proofmode") + 20);

        ProcessResult r = ProofModeJar.at(dir.resolve("home")).run("verify", "--json", bundle.folder().toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(3);
        assertThat(JsonReport.of(r).failures()).containsOnlyKeys("signature.proofJson.invalid");
    }

    /**
     * A bundle folder with our proof record and media, re-signed by gpg with the given key, and gpg's
     * export as {@code pubkey.asc}.
     */
    private ProofSet gpgSignedBundle(KeyAlgorithm algorithm) throws IOException {
        ProofSet bundle = template.bundleIn(dir.resolve("bundle"));
        String key = KEYS.get(algorithm);
        // Our records name their signer; a bundle signed by gpg's key names that key, as a tool would.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"Proof\\.Signer\":\"([0-9A-F]{40})\"")
                .matcher(Files.readString(bundle.json()));
        assertThat(m.find()).as("Proof.Signer in the template record").isTrue();
        String recorded = m.group(1);
        for (Path record : List.of(bundle.json(), bundle.csv())) {
            Files.writeString(record, Files.readString(record).replace(recorded, key.toUpperCase(java.util.Locale.ROOT)));
        }
        for (ProofSet.Signed s : bundle.signed()) {
            signer.detachSign(key, s.data(), s.signature());
        }
        signer.exportPublicKey(key, bundle.pubkey());
        for (ProofSet.Signed s : bundle.signed()) {
            assertThat(Files.readString(s.signature())).startsWith("-----BEGIN PGP SIGNATURE-----");
        }
        return bundle;
    }

    /** Zips the files of a folder, flat, as the app's share bundles are. */
    static Path zip(Path folder, Path zip) throws IOException {
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(out);
             Stream<Path> files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                z.putNextEntry(new ZipEntry(f.getFileName().toString()));
                Files.copy(f, z);
                z.closeEntry();
            }
        }
        return zip;
    }
}
