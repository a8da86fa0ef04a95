// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Manifests written by others ({@code c2pa-conformance} samples): ingredient manifests validated with
 * their own codes, legacy ingredient hashes, update manifests, time and trust. The reference's verdicts
 * on the same files are compared in the test kit's conformance test.
 */
class ConformanceSamplesTest {
    private static final Path DIR = TestHomes.samples().resolve("c2pa-conformance");
    /** A day the reference's verdicts in the samples' README were taken. */
    private static final Clock README_DAY = Clock.fixed(Instant.parse("2026-12-03T12:00:00Z"), ZoneOffset.UTC);

    private static C2paReport read(String name, Clock clock) throws Exception {
        return new C2paReader(List.of(), List.of(), clock).read(DIR.resolve(name)).orElseThrow();
    }

    private static C2paReport read(String name) throws Exception {
        return read(name, README_DAY);
    }

    /** The failure codes of the manifest with this label, except {@code signingCredential.untrusted}. */
    private static List<String> failures(C2paReport r, String label) {
        String prefix = ManifestStore.SELF + "/c2pa/" + label;
        return r.statuses().stream().filter(s -> s.outcome() == Outcome.FAILURE)
                .filter(s -> !s.code().equals(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED))
                .filter(s -> s.url().equals(prefix) || s.url().startsWith(prefix + "/")).map(C2paStatus::code).distinct().toList();
    }

    @Test
    void read_valid_legacyIngredientHashOfTheClaim() throws Exception {
        for (String f : List.of("legacy_ingredient_hash.jpg", "adobe-20220124-CACA.jpg", "adobe-20220124-CACAICAICICA.jpg", "verify.jpeg")) {
            C2paReport r = read(f);
            assertThat(r.state()).as(f + " " + r.statuses()).isEqualTo(ValidationState.VALID);
            assertThat(r.has(C2paStatus.Codes.INGREDIENT_MANIFEST_VALIDATED)).as(f).isTrue();
            assertThat(r.has(C2paStatus.Codes.INGREDIENT_MANIFEST_MISMATCH)).as(f).isFalse();
        }
    }

    @Test
    void read_ingredientClaimSignatureMismatch_ingredientWithBrokenSignature() throws Exception {
        C2paReport r = read("CIE-sig-CA.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r, "contentauth:urn:uuid:b0e53ec5-b976-4221-9bdd-9c4ff33e106f")).containsExactly("claimSignature.mismatch");
        assertThat(failures(r, r.activeManifest())).isEmpty();
    }

    @Test
    void read_ingredientManifestMissing_ingredientNamesAbsentManifest() throws Exception {
        C2paReport r = read("adobe-20220124-E-clm-CAICAI.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r, "contentbeef:urn:uuid:8bb8ad50-ef2f-4f75-b709-a0e302d58019")).containsExactly("ingredient.manifest.missing");
        assertThat(failures(r, r.activeManifest())).containsExactly("assertion.hashedURI.mismatch");
    }

    @Test
    void read_ingredientHashedUriMismatch_ingredientAssertionChanged() throws Exception {
        C2paReport r = read("adobe-20220124-E-uri-CIE-sig-CA.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r, "contentauth:urn:uuid:04cdf4ec-f713-4e47-a8d6-7af56501ce4b")).containsExactly("assertion.hashedURI.mismatch");
        assertThat(failures(r, r.activeManifest())).isEmpty();
    }

    @Test
    void read_algorithmUnsupported_claimNamesNoAlgorithm() throws Exception {
        C2paReport r = read("no_alg.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(r.statuses()).extracting(C2paStatus::code).containsExactly("algorithm.unsupported");
    }

    @Test
    void read_valid_updateManifestBoundThroughItsParent() throws Exception {
        C2paReport r = read("update_manifest.jpg");
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(C2paStatus.Codes.DATA_HASH_MATCH)).isTrue();
        assertThat(r.has(C2paStatus.Codes.HARD_BINDINGS_MISSING)).isFalse();
    }

    @Test
    void read_expired_untrustedTimeStampIgnoredAndNowUsed() throws Exception {
        C2paReport azure = read("c2pa.net-azure-output.jpg");
        assertThat(failures(azure, azure.activeManifest())).containsExactly("signingCredential.expired");
        assertThat(azure.has(C2paStatus.Codes.TIMESTAMP_UNTRUSTED)).isTrue();
        assertThat(azure.signedAt()).isEmpty();
        C2paReport sony = read("sony_official_teletrax.mp4");
        assertThat(failures(sony, sony.activeManifest())).containsExactly("signingCredential.expired");
    }

    @Test
    void read_notExpired_clockInsideTheCertificatesValidity() throws Exception {
        C2paReport sony = read("sony_official_teletrax.mp4", Clock.fixed(Instant.parse("2025-10-01T00:00:00Z"), ZoneOffset.UTC));
        assertThat(failures(sony, sony.activeManifest())).doesNotContain("signingCredential.expired");
    }

    @Test
    void read_actionMalformed_ingredientManifestOfTheSonyEdit() throws Exception {
        C2paReport r = read("sony_official_teletrax.mp4");
        assertThat(failures(r, "urn:c2pa:f36fc484-6930-420b-a13f-704b936addfd")).contains("assertion.action.malformed");
    }

    @Test
    void read_ingredientNotExpired_userRecordedSignatureInsideValidity() throws Exception {
        C2paReport r = read("PTS_TRUSTED_sony_official_cawg_wdr.mp4");
        String camera = "urn:c2pa:e0cbb89c-0cbd-4625-b364-0bf3a403ead8";
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(failures(r, camera)).doesNotContain("signingCredential.expired");
        assertThat(r.statuses()).filteredOn(s -> s.url().contains(camera) && s.code().equals("signingCredential.expired"))
                .extracting(C2paStatus::outcome).containsExactly(C2paStatus.Outcome.INFORMATIONAL);
        C2paReport edit = read("sony_official_teletrax.mp4");
        assertThat(failures(edit, camera)).doesNotContain("signingCredential.expired");
        assertThat(failures(edit, "urn:c2pa:f36fc484-6930-420b-a13f-704b936addfd")).doesNotContain("signingCredential.expired");
    }

    @Test
    void read_ingredientExpired_ingredientCertificateOutOfValidity() throws Exception {
        C2paReport r = read("PTS_INVALID_INGREDIENT.mp4");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r, "urn:uuid:3f59528a-aaaf-4cdc-af9f-80dd59a5de92")).containsExactly("signingCredential.expired");
        assertThat(failures(r, r.activeManifest())).isEmpty();
    }

    @Test
    void read_valid_stapledOcspAndRecordedIngredientFailure() throws Exception {
        assertThat(read("ocsp.jpg").state()).isEqualTo(ValidationState.VALID);
        assertThat(Optional.of(read("CACAE-uri-CA.jpg").state())).contains(ValidationState.VALID);
    }
}
