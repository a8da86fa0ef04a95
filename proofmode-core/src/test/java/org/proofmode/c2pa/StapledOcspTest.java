// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.CertificateStatus;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.OCSPRespBuilder;
import org.bouncycastle.cert.ocsp.RevokedStatus;
import org.bouncycastle.cert.ocsp.jcajce.JcaBasicOCSPRespBuilder;
import org.bouncycastle.operator.DigestCalculatorProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;

/** Stapled OCSP responses: revoked, good, and responses that must not count. */
class StapledOcspTest {
    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private static final String URL = "self#jumbf=/c2pa/urn:c2pa:test/c2pa.signature";

    private static KeyPair ec() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509Certificate cert(String subject, KeyPair subjectKeys, String issuer, KeyPair issuerKeys, boolean ca) throws Exception {
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name(issuer), BigInteger.valueOf(System.nanoTime()),
                Date.from(NOW.minus(365, ChronoUnit.DAYS)), Date.from(NOW.plus(365, ChronoUnit.DAYS)), new X500Name(subject),
                subjectKeys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        X509CertificateHolder h = b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate()));
        return new JcaX509CertificateConverter().getCertificate(h);
    }

    /** A response about {@code leaf} with this status, signed by {@code signer}. */
    private static byte[] response(X509Certificate leaf, X509Certificate issuer, KeyPair signer, CertificateStatus status) throws Exception {
        DigestCalculatorProvider digests = new JcaDigestCalculatorProviderBuilder().build();
        CertificateID id = new CertificateID(digests.get(CertificateID.HASH_SHA1), new JcaX509CertificateHolder(issuer), leaf.getSerialNumber());
        JcaBasicOCSPRespBuilder b = new JcaBasicOCSPRespBuilder(signer.getPublic(), digests.get(CertificateID.HASH_SHA1));
        b.addResponse(id, status, Date.from(NOW.minus(1, ChronoUnit.DAYS)), Date.from(NOW.plus(6, ChronoUnit.DAYS)));
        BasicOCSPResp basic = b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate()), null, Date.from(NOW));
        return new OCSPRespBuilder().build(OCSPResp.SUCCESSFUL, basic).getEncoded();
    }

    private static List<String> codes(byte[] der, List<X509Certificate> chain, Instant at) {
        List<C2paStatus> out = new ArrayList<>();
        StapledOcsp.check(der, chain, at, URL, out);
        return out.stream().map(s -> s.code() + "/" + s.outcome()).toList();
    }

    @Test
    void check_revoked_issuerSaysRevokedBeforeSigning() throws Exception {
        KeyPair caKeys = ec();
        KeyPair leafKeys = ec();
        X509Certificate ca = cert("CN=CA", caKeys, "CN=CA", caKeys, true);
        X509Certificate leaf = cert("CN=signer", leafKeys, "CN=CA", caKeys, false);
        byte[] revoked = response(leaf, ca, caKeys, new RevokedStatus(Date.from(NOW.minus(10, ChronoUnit.DAYS)), CRLReason.keyCompromise));

        assertThat(codes(revoked, List.of(leaf, ca), NOW)).containsExactly("signingCredential.ocsp.revoked/FAILURE");
        assertThat(codes(revoked, List.of(leaf, ca), NOW.minus(20, ChronoUnit.DAYS))).containsExactly("signingCredential.ocsp.notRevoked/SUCCESS");
        assertThat(codes(response(leaf, ca, caKeys, CertificateStatus.GOOD), List.of(leaf, ca), NOW))
                .containsExactly("signingCredential.ocsp.notRevoked/SUCCESS");
    }

    @Test
    void check_ignored_responseNotFromTheIssuerOrAboutAnotherCertificate() throws Exception {
        KeyPair caKeys = ec();
        KeyPair leafKeys = ec();
        KeyPair strangerKeys = ec();
        X509Certificate ca = cert("CN=CA", caKeys, "CN=CA", caKeys, true);
        X509Certificate leaf = cert("CN=signer", leafKeys, "CN=CA", caKeys, false);
        X509Certificate other = cert("CN=other", ec(), "CN=CA", caKeys, false);
        RevokedStatus revoked = new RevokedStatus(Date.from(NOW.minus(10, ChronoUnit.DAYS)), CRLReason.keyCompromise);

        assertThat(codes(response(leaf, ca, strangerKeys, revoked), List.of(leaf, ca), NOW)).isEmpty();
        assertThat(codes(response(other, ca, caKeys, revoked), List.of(leaf, ca), NOW)).isEmpty();
        assertThat(codes(new byte[] {0x30, 0x03, 0x0a, 0x01, 0x00}, List.of(leaf, ca), NOW)).isEmpty();
    }

    @Test
    void read_notRevoked_stapledResponsesOfTheReferenceSample() throws Exception {
        Path ocsp = TestHomes.samples().resolve("c2pa-conformance/ocsp.jpg");
        C2paReport r = new C2paReader(List.of(), List.of()).read(ocsp).orElseThrow();

        assertThat(r.state()).isEqualTo(ValidationState.VALID);
        assertThat(r.statuses()).filteredOn(s -> s.code().equals(C2paStatus.Codes.OCSP_NOT_REVOKED)).hasSize(2);
    }
}
