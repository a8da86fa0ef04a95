// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.CertException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.OCSPException;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.cert.ocsp.RevokedStatus;
import org.bouncycastle.cert.ocsp.SingleResp;
import org.bouncycastle.cert.ocsp.UnknownStatus;
import org.bouncycastle.operator.DigestCalculatorProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * An OCSP response stapled to a claim signature (C2PA 2.2 section 15.9, "Validate the Credential
 * Revocation Information"; COSE unprotected header {@code rVals}, {@code ocspVals}). A response counts
 * only if it is a successful basic response about the signing certificate, signed by the certificate's
 * issuer or by a responder that issuer authorised for OCSP signing; then the certificate is
 * {@code signingCredential.ocsp.notRevoked}, {@code signingCredential.ocsp.revoked} (revoked at or before
 * the signing time) or {@code signingCredential.ocsp.unknown}. A response that does not count is
 * ignored, as is the absence of one; responses are never fetched.
 */
final class StapledOcsp {
    private StapledOcsp() {}

    /** The first stapled response of a signature, if any. */
    static Optional<byte[]> response(CoseSign1 cose) {
        JsonNode v = cose.unprotected().path("rVals").path("ocspVals").path(0);
        try {
            return v.isBinary() ? Optional.of(v.binaryValue()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Checks a response about {@code chain.get(0)}, issued by {@code chain.get(1)}, at {@code at}, and
     * adds at most one status.
     */
    static void check(byte[] der, List<X509Certificate> chain, Instant at, String url, List<C2paStatus> out) {
        if (chain.size() < 2) {
            return;
        }
        try {
            OCSPResp resp = new OCSPResp(der);
            if (resp.getStatus() != OCSPResp.SUCCESSFUL || !(resp.getResponseObject() instanceof BasicOCSPResp basic)) {
                return;
            }
            X509CertificateHolder issuer = new JcaX509CertificateHolder(chain.get(1));
            if (!signedByAuthorisedResponder(basic, issuer)) {
                return;
            }
            DigestCalculatorProvider digests = new JcaDigestCalculatorProviderBuilder().setProvider(CoseSign1.BC).build();
            for (SingleResp single : basic.getResponses()) {
                CertificateID id = single.getCertID();
                if (!id.getSerialNumber().equals(chain.get(0).getSerialNumber()) || !id.matchesIssuer(issuer, digests)) {
                    continue;
                }
                Object status = single.getCertStatus();
                if (status instanceof RevokedStatus r) {
                    Instant when = r.getRevocationTime().toInstant();
                    if (!when.isAfter(at)) {
                        out.add(new C2paStatus(Codes.OCSP_REVOKED, Outcome.FAILURE, "the signing certificate was revoked on " + when
                                + " (stapled OCSP response)", url));
                    } else {
                        out.add(new C2paStatus(Codes.OCSP_NOT_REVOKED, Outcome.SUCCESS, "the signing certificate was revoked on " + when
                                + ", after the signing time " + at + " (stapled OCSP response)", url));
                    }
                } else if (status instanceof UnknownStatus) {
                    out.add(new C2paStatus(Codes.OCSP_UNKNOWN, Outcome.INFORMATIONAL, "the stapled OCSP response does not know the "
                            + "signing certificate", url));
                } else {
                    out.add(new C2paStatus(Codes.OCSP_NOT_REVOKED, Outcome.SUCCESS, "the stapled OCSP response says the signing "
                            + "certificate was not revoked (produced " + basic.getProducedAt().toInstant() + ")", url));
                }
                return;
            }
        } catch (IOException | RuntimeException | OCSPException | CertificateException
                | OperatorCreationException e) {
            return; // not a usable response: ignored, as if none were stapled
        }
    }

    /** Signed by the issuer itself, or by a responder certificate the issuer signed for OCSP signing. */
    private static boolean signedByAuthorisedResponder(BasicOCSPResp basic, X509CertificateHolder issuer)
            throws OperatorCreationException, OCSPException,
            CertificateException {
        JcaContentVerifierProviderBuilder verifiers = new JcaContentVerifierProviderBuilder().setProvider(CoseSign1.BC);
        if (basic.isSignatureValid(verifiers.build(issuer))) {
            return true;
        }
        for (X509CertificateHolder responder : basic.getCerts()) {
            boolean issued;
            try {
                issued = responder.getIssuer().equals(issuer.getSubject()) && responder.isSignatureValid(verifiers.build(issuer));
            } catch (CertException e) {
                issued = false;
            }
            ExtendedKeyUsage eku = responder.getExtensions() == null ? null
                    : ExtendedKeyUsage.fromExtensions(responder.getExtensions());
            Date produced = basic.getProducedAt();
            if (issued && eku != null && eku.hasKeyPurposeId(KeyPurposeId.id_kp_OCSPSigning) && responder.isValidOn(produced)
                    && basic.isSignatureValid(verifiers.build(responder))) {
                return true;
            }
        }
        return false;
    }
}
