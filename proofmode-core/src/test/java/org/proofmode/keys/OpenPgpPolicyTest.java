// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.junit.jupiter.api.Test;
import org.pgpainless.PGPainless;
import org.pgpainless.algorithm.CompressionAlgorithm;
import org.pgpainless.algorithm.HashAlgorithm;
import org.pgpainless.algorithm.PublicKeyAlgorithm;
import org.pgpainless.algorithm.SymmetricKeyAlgorithm;
import org.pgpainless.key.info.KeyRingInfo;
import org.pgpainless.policy.Policy;

/** {@link OpenPgpPolicy} is PGPainless's default policy in every rule (a new PGPainless that changes it fails here). */
class OpenPgpPolicyTest {
    private final Policy ours = OpenPgpPolicy.standard();
    /** PGPainless's own default, made here rather than taken from its global instance, which a test could have changed. */
    private final Policy theirs = new Policy();

    @Test
    void hashAlgorithmRulesAreTheLibrarysDefaults() {
        List<Date> when = new ArrayList<>(List.of(new Date(0), new Date(), Date.from(Instant.parse("2100-01-01T00:00:00Z"))));
        for (Date cut : List.of(OpenPgpPolicy.CERTIFICATIONS_WEAK_UNTIL, OpenPgpPolicy.DATA_WEAK_UNTIL, OpenPgpPolicy.MD5_UNTIL)) {
            when.add(new Date(cut.getTime() - 1));
            when.add(cut);
            when.add(new Date(cut.getTime() + 1));
        }
        same(ours.getCertificationSignatureHashAlgorithmPolicy(), theirs.getCertificationSignatureHashAlgorithmPolicy(), when);
        same(ours.getRevocationSignatureHashAlgorithmPolicy(), theirs.getRevocationSignatureHashAlgorithmPolicy(), when);
        same(ours.getDataSignatureHashAlgorithmPolicy(), theirs.getDataSignatureHashAlgorithmPolicy(), when);
    }

    private static void same(Policy.HashAlgorithmPolicy ours, Policy.HashAlgorithmPolicy theirs, List<Date> when) {
        assertThat(ours.getDefaultHashAlgorithm()).isEqualTo(theirs.getDefaultHashAlgorithm());
        assertThat(ours.getAcceptableHashAlgorithmsAndTerminationDates())
                .containsExactlyInAnyOrderEntriesOf(theirs.getAcceptableHashAlgorithmsAndTerminationDates());
        for (HashAlgorithm h : HashAlgorithm.values()) {
            assertThat(ours.isAcceptable(h)).as("%s", h).isEqualTo(theirs.isAcceptable(h));
            for (Date d : when) {
                assertThat(ours.isAcceptable(h, d)).as("%s at %s", h, d.toInstant()).isEqualTo(theirs.isAcceptable(h, d));
            }
        }
    }

    @Test
    void theOtherRulesAreTheLibrarysDefaults() {
        for (SymmetricKeyAlgorithm s : SymmetricKeyAlgorithm.values()) {
            assertThat(ours.getSymmetricKeyEncryptionAlgorithmPolicy().isAcceptable(s))
                    .isEqualTo(theirs.getSymmetricKeyEncryptionAlgorithmPolicy().isAcceptable(s));
            assertThat(ours.getSymmetricKeyDecryptionAlgorithmPolicy().isAcceptable(s))
                    .isEqualTo(theirs.getSymmetricKeyDecryptionAlgorithmPolicy().isAcceptable(s));
        }
        assertThat(ours.getSymmetricKeyEncryptionAlgorithmPolicy().getDefaultSymmetricKeyAlgorithm())
                .isEqualTo(theirs.getSymmetricKeyEncryptionAlgorithmPolicy().getDefaultSymmetricKeyAlgorithm());
        assertThat(ours.getSymmetricKeyDecryptionAlgorithmPolicy().getDefaultSymmetricKeyAlgorithm())
                .isEqualTo(theirs.getSymmetricKeyDecryptionAlgorithmPolicy().getDefaultSymmetricKeyAlgorithm());
        for (CompressionAlgorithm c : CompressionAlgorithm.values()) {
            assertThat(ours.getCompressionAlgorithmPolicy().isAcceptable(c)).isEqualTo(theirs.getCompressionAlgorithmPolicy().isAcceptable(c));
        }
        assertThat(ours.getCompressionAlgorithmPolicy().getDefaultCompressionAlgorithm())
                .isEqualTo(theirs.getCompressionAlgorithmPolicy().getDefaultCompressionAlgorithm());
        for (PublicKeyAlgorithm p : PublicKeyAlgorithm.values()) {
            for (int bits : new int[] {0, 255, 256, 384, 521, 1023, 1024, 1999, 2000, 2047, 2048, 3072, 4096, 8192}) {
                assertThat(ours.getPublicKeyAlgorithmPolicy().isAcceptable(p, bits)).as("%s %d", p, bits)
                        .isEqualTo(theirs.getPublicKeyAlgorithmPolicy().isAcceptable(p, bits));
            }
        }
        assertThat(ours.getSignerUserIdValidationLevel()).isEqualTo(theirs.getSignerUserIdValidationLevel());
        assertThat(ours.getEnableKeyParameterValidation()).isEqualTo(theirs.getEnableKeyParameterValidation());
        assertThat(ours.getKeyGenerationAlgorithmSuite().getHashAlgorithms())
                .isEqualTo(theirs.getKeyGenerationAlgorithmSuite().getHashAlgorithms());
        assertThat(ours.getKeyGenerationAlgorithmSuite().getSymmetricKeyAlgorithms())
                .isEqualTo(theirs.getKeyGenerationAlgorithmSuite().getSymmetricKeyAlgorithms());
        assertThat(ours.getKeyGenerationAlgorithmSuite().getCompressionAlgorithms())
                .isEqualTo(theirs.getKeyGenerationAlgorithmSuite().getCompressionAlgorithms());
        for (String notation : List.of("", "proof@example.org", "salt@notations.sequoia-pgp.org", "preferred-email-encoding@pgp.com")) {
            assertThat(ours.getNotationRegistry().isKnownNotation(notation)).isEqualTo(theirs.getNotationRegistry().isKnownNotation(notation));
        }
    }

    @Test
    void oneInstanceAndInspectionAtTheGivenTime() throws Exception {
        assertThat(OpenPgpPolicy.standard()).isSameAs(ours);
        PGPPublicKeyRing cert = PGPainless.extractCertificate(KeyFixtures.pgpainlessKey());
        Date then = new Date(cert.getPublicKey().getCreationTime().getTime() + 1000);
        KeyRingInfo info = OpenPgpPolicy.inspect(cert, then);
        assertThat(info.getPolicy()).isSameAs(ours);
        assertThat(info.getReferenceDate()).isEqualTo(then);
        assertThat(OpenPgpPolicy.inspect(cert).getPrimaryUserId()).isEqualTo(info.getPrimaryUserId());
    }
}
