// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Manifests from the wild ({@code c2pa-conformance-2} samples), one test per class of file where this
 * reader once disagreed with the reference validator: the verdict and codes the samples' README records
 * for the reference. The test kit's conformance test compares both readers on every file of the set.
 */
class WildSamplesTest {
    private static final Path DIR = TestHomes.samples().resolve("c2pa-conformance-2");
    /** The day the reference's verdicts in the samples' README were taken. */
    private static final Clock README_DAY = Clock.fixed(Instant.parse("2026-12-05T12:00:00Z"), ZoneOffset.UTC);

    private static C2paReport read(String name) throws Exception {
        return new C2paReader(List.of(), List.of(), README_DAY).read(DIR.resolve(name)).orElseThrow();
    }

    /** The failure codes, except {@code signingCredential.untrusted}. */
    private static List<String> failures(C2paReport r) {
        return r.statuses().stream().filter(s -> s.outcome() == Outcome.FAILURE)
                .filter(s -> !s.code().equals(Codes.SIGNING_CREDENTIAL_UNTRUSTED)).map(C2paStatus::code).distinct().sorted().toList();
    }

    @Test
    void read_valid_app11SegmentsNumberedFromZeroAndGeneralBoxHash() throws Exception {
        C2paReport r = read("bing_creator_cloud_surfing_puppy.jpg");
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(Codes.BOXES_HASH_MATCH)).isTrue();
    }

    @Test
    void read_valid_paddingAfterStoreInBmffUuidBoxOfAudioMp4() throws Exception {
        C2paReport r = read("truepic-lensdemo-t6-audio.mp4");
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.has(Codes.BMFF_HASH_MATCH)).isTrue();
    }

    @Test
    void read_bmffHashMismatch_emptyMerkleList() throws Exception {
        C2paReport r = read("trustnxt-icon-signed-v2-bmff-2.heic");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.BMFF_HASH_MISMATCH);
    }

    @Test
    void read_bmffHashMalformed_optionalFieldsHoldingCborUndefined() throws Exception {
        C2paReport r = read("trustnxt-icon-signed-v3-bmff.heic");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.BMFF_HASH_MALFORMED);
    }

    @Test
    void read_algorithmUnsupported_es256kClaimSignature() throws Exception {
        C2paReport r = read("screenshot-signed-badsig.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.ALGORITHM_UNSUPPORTED, Codes.CLAIM_SIGNATURE_MISMATCH);
    }

    @Test
    void read_ingredientMismatchAndClaimMalformed_openedWithoutIngredientAndNonConformantLabel() throws Exception {
        C2paReport r = read("testv2.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.ACTION_INGREDIENT_MISMATCH, Codes.CLAIM_MALFORMED, "signingCredential.expired");
        assertThat(ManifestCheck.isManifestUrn(r.activeManifest())).isFalse();
    }

    @Test
    void isManifestUrn_acceptsSection83Forms_rejectsOthers() {
        assertThat(List.of("urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4", "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4:acme",
                "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4:acme:2_1", "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4::2_1"))
                .allMatch(ManifestCheck::isManifestUrn);
        assertThat(List.of("urn:c2pa::69b9422c-0e44-485c-9f2c-9a79c13eaefb", "urn:uuid:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4",
                "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4:acme:2_1:extra", "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4:a b",
                "urn:c2pa:F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4:acme:two"))
                .noneMatch(ManifestCheck::isManifestUrn);
    }

    @Test
    void read_validWithIdentity_cawgX509IdentityAssertionUntrustedWithoutAnchors() throws Exception {
        C2paReport r = read("x509_signing.jpg");
        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.statuses()).filteredOn(s -> s.code().equals(Codes.CAWG_X509_SIGNATURE_VALIDATED)).singleElement()
                .satisfies(s -> assertThat(s.explanation()).startsWith("identity signed by ").contains("CN="));
        assertThat(failures(r)).containsExactly(Codes.CAWG_X509_CREDENTIAL_UNTRUSTED);
    }

    @Test
    void read_invalid_cawgIdentityAssertionWithoutSignerPayload() throws Exception {
        C2paReport r = read("cawg-malformed_cbor.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.CAWG_IDENTITY_CBOR_INVALID);
    }

    @Test
    void read_invalid_identityClaimsAggregationCredentialWithBadSignature() throws Exception {
        C2paReport r = read("cawg-ica-signature_mismatch.jpg");
        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.CAWG_ICA_SIGNATURE_MISMATCH);
    }
}
