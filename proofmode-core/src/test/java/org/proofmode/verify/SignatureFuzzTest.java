// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.junit.jupiter.api.Test;
import org.proofmode.keys.OpenPgpKeys;

/**
 * Fuzz target for armored (and binary) detached OpenPGP signatures, checked against the key and media of
 * the committed seed bundle. Its documented outcome is an {@link SignatureChecker.Outcome} for any bytes,
 * never an exception, and the media is always read to its end (the verifier hashes it in the same pass).
 * In a normal build this replays the seeds in {@code SignatureFuzzTestInputs/armoredSignature/} (a good
 * signature over the seed's media among them); {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class SignatureFuzzTest {
    private static final Map<String, byte[]> SEED = seedBundle();
    private static final byte[] MEDIA = SEED.get("tiny.jpg");
    private static final List<PGPPublicKeyRing> KEYS = OpenPgpKeys.readCertificates(SEED.get("pubkey.asc"), "pubkey.asc");

    @FuzzTest(maxDuration = "2m")
    void armoredSignature(byte[] data) throws IOException {
        ByteArrayInputStream media = new ByteArrayInputStream(MEDIA);

        SignatureChecker.Outcome outcome = new SignatureChecker(KEYS).check(data, media);

        assertThat(outcome.kind()).isNotNull();
        assertThat(media.available()).as("media left unread after a " + outcome.kind() + " outcome").isZero();
        if (outcome.kind() == SignatureChecker.Kind.VALID) {
            assertThat(outcome.signer()).contains(KEYS.get(0));
        }
    }

    @Test
    void check_isValid_seedSignature() throws IOException {
        byte[] seed;
        try (InputStream in = SignatureFuzzTest.class.getResourceAsStream("SignatureFuzzTestInputs/armoredSignature/our-media-signature.asc")) {
            seed = in.readAllBytes();
        }

        SignatureChecker.Outcome outcome = new SignatureChecker(KEYS).check(seed, new ByteArrayInputStream(MEDIA));

        assertThat(outcome.kind()).as(outcome.message()).isEqualTo(SignatureChecker.Kind.VALID);
    }

    private static Map<String, byte[]> seedBundle() {
        String zip = "/org/proofmode/fuzz/UntrustedInputFuzzTestInputs/bundleZip/our-bundle.zip";
        Map<String, byte[]> entries = new HashMap<>();
        try (InputStream in = SignatureFuzzTest.class.getResourceAsStream(zip); ZipInputStream z = new ZipInputStream(in)) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                entries.put(e.getName(), z.readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }
}
