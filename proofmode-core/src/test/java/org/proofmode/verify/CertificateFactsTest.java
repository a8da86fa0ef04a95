// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Date;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPBESecretKeyDecryptorBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.junit.jupiter.api.Test;
import org.pgpainless.PGPainless;
import org.pgpainless.exception.SignatureValidationException;
import org.pgpainless.key.protection.SecretKeyRingProtector;

/**
 * What {@link CertificateFacts} remembers is keyed by everything it depends on: asked again, it answers as
 * the first time, and another certificate (a revoked copy, a later expiry) or another signing time never
 * gets the answer of the first.
 */
class CertificateFactsTest {
    private static final long DAY = 86_400_000L;

    private static PGPSignature signatureAt(PGPSecretKeyRing ring, Date when) throws Exception {
        var secret = ring.getSecretKey();
        var priv = secret.extractPrivateKey(new BcPBESecretKeyDecryptorBuilder(new BcPGPDigestCalculatorProvider()).build(new char[0]));
        PGPSignatureGenerator gen = new PGPSignatureGenerator(
                new BcPGPContentSignerBuilder(secret.getPublicKey().getAlgorithm(), org.bouncycastle.bcpg.HashAlgorithmTags.SHA256),
                secret.getPublicKey());
        gen.init(PGPSignature.BINARY_DOCUMENT, priv);
        PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
        hashed.setSignatureCreationTime(true, when);
        hashed.setIssuerFingerprint(false, secret.getPublicKey());
        gen.setHashedSubpackets(hashed.generate());
        gen.update(new byte[] {1, 2, 3});
        return gen.generate();
    }

    @Test
    void validateCertificate_rejectsEveryTime_aSignatureMadeBeforeItsKey() throws Exception {
        PGPSecretKeyRing ring = PGPainless.generateKeyRing().simpleEcKeyRing("a <a@example.org>");
        PGPPublicKeyRing cert = PGPainless.extractCertificate(ring);
        PGPSignature before = signatureAt(ring, new Date(System.currentTimeMillis() - DAY));
        PGPSignature now = signatureAt(ring, new Date());

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> CertificateFacts.validateCertificate(before, cert, PGPainless.getPolicy()))
                    .isInstanceOf(SignatureValidationException.class);
            CertificateFacts.validateCertificate(now, cert, PGPainless.getPolicy());
        }
    }

    @Test
    void revokedAndExpired_answerForTheirOwnCertificateAndTime() throws Exception {
        PGPSecretKeyRing ring = PGPainless.generateKeyRing().simpleEcKeyRing("b <b@example.org>");
        PGPPublicKeyRing cert = PGPainless.extractCertificate(ring);
        long keyId = cert.getPublicKey().getKeyID();
        Date soon = new Date(System.currentTimeMillis() + 2 * DAY);
        PGPPublicKeyRing expiring = PGPainless.extractCertificate(PGPainless.modifyKeyRing(ring)
                .setExpirationDate(soon, SecretKeyRingProtector.unprotectedKeys()).done());
        PGPPublicKeyRing revoked = PGPainless.extractCertificate(PGPainless.modifyKeyRing(ring)
                .revoke(SecretKeyRingProtector.unprotectedKeys()).done());
        Date tomorrow = new Date(System.currentTimeMillis() + DAY);
        Date nextWeek = new Date(System.currentTimeMillis() + 7 * DAY);

        for (int i = 0; i < 2; i++) {
            assertThat(CertificateFacts.revoked(cert, keyId, tomorrow)).isEmpty();
            assertThat(CertificateFacts.revoked(revoked, keyId, tomorrow)).hasValueSatisfying(
                    f -> assertThat(f.problem()).isEqualTo(KeyState.Problem.REVOKED));
            assertThat(CertificateFacts.expired(expiring, keyId, tomorrow)).isEmpty();
            assertThat(CertificateFacts.expired(expiring, keyId, nextWeek)).hasValueSatisfying(
                    f -> assertThat(f.problem()).isEqualTo(KeyState.Problem.EXPIRED));
            assertThat(CertificateFacts.expired(cert, keyId, nextWeek)).isEmpty();
        }
        assertThat(CertificateFacts.id(cert)).isNotEqualTo(CertificateFacts.id(revoked)).isNotEqualTo(CertificateFacts.id(expiring))
                .isEqualTo(CertificateFacts.id(PGPainless.extractCertificate(ring)));
        assertThat(CertificateFacts.describe(cert).fingerprint()).isEqualTo(CertificateFacts.describe(revoked).fingerprint());
    }

    @Test
    void id_sameAsFromTheBytes_eachCopyAndAskedAgain() throws Exception {
        PGPPublicKeyRing cert = PGPainless.extractCertificate(PGPainless.generateKeyRing().simpleEcKeyRing("c <c@example.org>"));
        String fromBytes = org.proofmode.util.Hex.encode(org.proofmode.media.Digests.newSha256().digest(cert.getEncoded()));
        PGPPublicKeyRing copy = new PGPPublicKeyRing(cert.getEncoded(), new org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator());
        for (int i = 0; i < 3; i++) {
            assertThat(CertificateFacts.id(cert)).isEqualTo(fromBytes);
            assertThat(CertificateFacts.id(copy)).isEqualTo(fromBytes);
        }
        PGPPublicKeyRing other = PGPainless.extractCertificate(PGPainless.generateKeyRing().simpleEcKeyRing("c <c@example.org>"));
        assertThat(CertificateFacts.id(other)).isNotEqualTo(fromBytes)
                .isEqualTo(org.proofmode.util.Hex.encode(org.proofmode.media.Digests.newSha256().digest(other.getEncoded())));
    }

    @Test
    void id_forgottenWithTheCertificate_twoThousandCopiesDropped() throws Exception {
        byte[] encoded = PGPainless.extractCertificate(PGPainless.generateKeyRing().simpleEcKeyRing("d <d@example.org>")).getEncoded();
        int before = CertificateFacts.idsRemembered();
        for (int i = 0; i < 2_000; i++) {
            CertificateFacts.id(new PGPPublicKeyRing(encoded, new org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator()));
        }
        // Nothing else holds the copies: a collection lets them (and their ids) go, as a batch's bundles go.
        long until = System.nanoTime() + 20_000_000_000L;
        while (CertificateFacts.idsRemembered() > before + 100 && System.nanoTime() < until) {
            System.gc();
            Thread.sleep(50);
        }
        assertThat(CertificateFacts.idsRemembered()).isLessThanOrEqualTo(before + 100);
    }
}
