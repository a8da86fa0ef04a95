// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;

class AppSamplesTest {
    private static final Path STARLING = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor");
    private static final Path LEGACY = TestHomes.samples().resolve("proofmode/proofmode-android-sample-proof-1");
    private static final String APP_KEY = "FD2E7EFAD559FF84";

    private final Verifier verifier = new Verifier(List.of(), BundleLimits.DEFAULT);

    @Test
    void verify_valid_appGoodZip() {
        VerificationReport r = verifier.verify(STARLING.resolve("good.zip"), Optional.empty());
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        ProofReport p = r.proofs().get(0);
        assertThat(p.media()).contains("smallest_jpeg.jpg");
        assertThat(p.signer()).hasValueSatisfying(s -> {
            assertThat(s.fingerprint()).endsWith(APP_KEY);
            assertThat(s.algorithm()).isEqualTo("rsa4096");
            assertThat(s.trusted()).isFalse();
        });
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
        assertThat(r.has("signature.media.valid")).isTrue();
        assertThat(r.has("signature.proofJson.valid")).isTrue();
        assertThat(r.has("signature.proofCsv.valid")).isTrue();
        assertThat(r.has(CheckCodes.SIGNER_UNTRUSTED)).isTrue();
        assertThat(p.times()).containsEntry("Proof Generated", "2022-11-30T14:50:05Z");
    }

    @Test
    void verify_invalid_appBadZipNamesJsonSignature() {
        VerificationReport r = verifier.verify(STARLING.resolve("bad.zip"), Optional.empty());
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        Check c = r.find("signature.proofJson.invalid").orElseThrow();
        assertThat(c.subject()).endsWith(".proof.json.asc");
        assertThat(r.has("signature.media.valid")).isTrue();
        assertThat(r.has("signature.proofCsv.valid")).isTrue();
    }

    @Test
    void verify_invalid_appNoJsonZipNamesMediaSignature() {
        VerificationReport r = verifier.verify(STARLING.resolve("no-json.zip"), Optional.empty());
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find("signature.media.invalid").orElseThrow().subject()).endsWith(".asc");
        assertThat(r.has("signature.proofCsv.valid")).isTrue();
        assertThat(r.find(CheckCodes.PROOF_CSV_HASH_MATCH).orElseThrow().message()).contains("all 2 records");
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
    }

    @Test
    void verify_unverifiable_2016FolderWithoutKey() {
        VerificationReport r = verifier.verify(LEGACY, Optional.empty());
        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.proofs()).hasSize(1);
        ProofReport p = r.proofs().get(0);
        assertThat(p.sha256()).contains("ddb8620a20eb4d214a5c495dd4b74c1a6bb6d1754ac0f28e2d1cd5e7e65e073d");
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
        assertThat(r.has("signature.media.unverifiable")).isTrue();
        assertThat(r.has("signature.proofCsv.unverifiable")).isTrue();
        assertThat(r.allChecks()).noneMatch(c -> c.code().endsWith(".valid"));
        assertThat(p.times()).containsEntry("CurrentDateTime0GMT", "2016-12-14T21:38:22Z");
    }
}
