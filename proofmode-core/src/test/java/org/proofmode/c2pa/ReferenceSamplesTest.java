// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.c2pa.C2paStatus.Codes;

/** Our reader against files signed by the reference implementation (see samples/c2pa/README.md). */
class ReferenceSamplesTest {
    private static final Path DIR = TestHomes.samples().resolve("c2pa");
    private final C2paReader reader = new C2paReader(List.of(), List.of());

    @Test
    void read_valid_referenceCreatedJpeg() throws Exception {
        C2paReport r = reader.read(DIR.resolve("C.jpg")).orElseThrow();
        assertThat(r.statuses()).filteredOn(s -> s.outcome() == C2paStatus.Outcome.FAILURE)
                .extracting(C2paStatus::code).containsExactly(Codes.SIGNING_CREDENTIAL_UNTRUSTED);
        assertThat(r.state()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isTrue();
        assertThat(r.has(Codes.DATA_HASH_MATCH)).isTrue();
        assertThat(r.has(Codes.HASHED_URI_MATCH)).isTrue();
        assertThat(r.has(Codes.TIMESTAMP_VALIDATED)).isTrue();
        assertThat(r.signedAt()).isPresent();
    }

    @Test
    void read_valid_referenceJpegWithIngredient() throws Exception {
        C2paReport r = reader.read(DIR.resolve("CA.jpg")).orElseThrow();
        assertThat(r.statuses()).filteredOn(s -> s.outcome() == C2paStatus.Outcome.FAILURE)
                .extracting(C2paStatus::code).containsExactly(Codes.SIGNING_CREDENTIAL_UNTRUSTED);
        assertThat(r.state()).isEqualTo(ValidationState.VALID);
        assertThat(r.assertions()).anyMatch(a -> a.startsWith("c2pa.ingredient"));
    }

    @Test
    void read_invalid_referenceBrokenClaimSignature() throws Exception {
        C2paReport r = reader.read(DIR.resolve("E-sig-CA.jpg")).orElseThrow();
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(r.has(Codes.CLAIM_SIGNATURE_MISMATCH)).isTrue();
        assertThat(r.has(Codes.CLAIM_SIGNATURE_VALIDATED)).isFalse();
    }

    @Test
    void read_empty_noManifest() throws Exception {
        assertThat(reader.read(DIR.resolve("no_manifest.jpg"))).isEqualTo(Optional.empty());
        assertThat(reader.read(DIR.resolve("libpng-test.png"))).isEqualTo(Optional.empty());
    }

    @Test
    void read_empty_damagedContainerWithoutStore() {
        byte[] b = new byte[3000];
        new java.util.Random(13).nextBytes(b);
        b[0] = (byte) 0xFF;
        b[1] = (byte) 0xD8;
        b[2] = (byte) 0xFF;
        b[3] = (byte) 0xE0;
        assertThat(reader.read(b)).isEmpty();
        byte[] png = java.util.Arrays.copyOf(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0, 0, 0}, 40);
        assertThat(reader.read(png)).isEmpty();
    }
}
