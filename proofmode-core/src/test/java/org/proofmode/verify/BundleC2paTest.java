// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;

/** Content credentials of the media inside a share bundle are checked like those of a loose file. */
class BundleC2paTest {
    private static final String MEDIA = "signed.jpg";

    @TempDir
    static Path dir;

    private static Path zip;

    private final Verifier verifier = new Verifier(List.of(), BundleLimits.DEFAULT);

    @BeforeAll
    static void signedBundle() throws Exception {
        LocalCa ca = new LocalCa(dir.resolve("ca-home"));
        ca.create(Passphrase.adopt("ca passphrase".toCharArray()), "TEST", false);
        byte[] signed = new ManifestBuilder().title(MEDIA).created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(Files.readAllBytes(TestHomes.examplePhoto()),
                        ca.signer(Passphrase.adopt("ca passphrase".toCharArray())), Optional.empty());
        Path media = Files.write(dir.resolve(MEDIA), signed);
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        ProveResult r = TestHomes.prove(pm, key, media);
        zip = dir.resolve("bundle.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(media))), zip, false);
    }

    @Test
    void verify_reportsManifestChecks_signedMediaInZip() {
        VerificationReport r = verifier.verify(zip, Optional.empty());
        assertThat(r.has("c2pa.claimSignature.validated")).isTrue();
        assertThat(r.has("c2pa.assertion.dataHash.match")).isTrue();
        assertThat(r.has("c2pa.signingCredential.untrusted")).isTrue();
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
    }

    @Test
    void verify_reportsDataHashMismatch_imageByteFlippedInZip() throws IOException {
        Map<String, byte[]> entries = entries(zip);
        String name = entries.keySet().stream().filter(n -> n.endsWith(MEDIA)).findFirst().orElseThrow();
        byte[] media = entries.get(name);
        media[media.length - 10] ^= 0x01;
        Path flipped = write(entries, dir.resolve("flipped.zip"));

        VerificationReport r = verifier.verify(flipped, Optional.empty());

        assertThat(r.has("c2pa.assertion.dataHash.mismatch")).isTrue();
        assertThat(r.has("c2pa.assertion.dataHash.match")).isFalse();
        assertThat(r.has(CheckCodes.MEDIA_HASH_MISMATCH)).isTrue();
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
    }

    @Test
    void verify_reportsManifestChecksOnce_mediaBesideProofFolder() throws IOException {
        Path folder = dir.resolve("unzipped");
        Files.createDirectories(folder);
        Path media = null;
        for (Map.Entry<String, byte[]> e : entries(zip).entrySet()) {
            Path p = Files.write(folder.resolve(Path.of(e.getKey()).getFileName().toString()), e.getValue());
            if (e.getKey().endsWith(MEDIA)) {
                media = p;
            }
        }
        Path beside = Files.move(media, dir.resolve("beside-" + MEDIA));

        VerificationReport r = verifier.verify(folder, Optional.of(beside));

        assertThat(r.checks().stream().filter(c -> c.code().equals("c2pa.claimSignature.validated")).count()).isEqualTo(1);
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
    }

    @Test
    void verify_addsNoManifestChecks_appGoodZip() {
        VerificationReport r = verifier.verify(
                TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/good.zip"), Optional.empty());
        assertThat(r.checks()).noneMatch(c -> c.code().startsWith("c2pa."));
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
    }

    private static Map<String, byte[]> entries(Path file) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(file.toFile())) {
            for (ZipEntry e : Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    out.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return out;
    }

    private static Path write(Map<String, byte[]> entries, Path file) throws IOException {
        try (OutputStream os = Files.newOutputStream(file); ZipOutputStream out = new ZipOutputStream(os)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(e.getValue());
                out.closeEntry();
            }
        }
        return file;
    }
}
