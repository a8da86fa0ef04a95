// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampToken;

/** Checks the RFC 3161 token of a C2PA signature ({@code sigTst2}, or the older {@code sigTst}). */
final class TimeStampCheck {
    /**
     * The result.
     *
     * @param code a {@link C2paStatus.Codes} time-stamp code
     * @param message one sentence
     * @param genTime the token's time, when it validated
     * @param chain the authority's certificates, when it validated
     */
    record Result(String code, String message, Optional<Instant> genTime, List<X509Certificate> chain) {}

    private TimeStampCheck() {}

    /** A token, or the token inside a whole response (what c2pa-rs stores). */
    private static TimeStampToken token(byte[] der) throws Exception {
        try {
            return new TimeStampToken(new CMSSignedData(der));
        } catch (Exception notAToken) {
            TimeStampToken t = new TimeStampResponse(der).getTimeStampToken();
            if (t == null) {
                throw notAToken;
            }
            return t;
        }
    }

    static Result check(byte[] token, byte[] stampedData) {
        TimeStampToken t;
        try {
            t = token(token);
        } catch (Exception e) {
            return new Result(C2paStatus.Codes.TIMESTAMP_MALFORMED, "unreadable time-stamp token", Optional.empty(), List.of());
        }
        try {
            String alg = t.getTimeStampInfo().getMessageImprintAlgOID().getId();
            MessageDigest md = MessageDigest.getInstance(alg, CoseSign1.BC);
            if (!MessageDigest.isEqual(md.digest(stampedData), t.getTimeStampInfo().getMessageImprintDigest())) {
                return new Result(C2paStatus.Codes.TIMESTAMP_MISMATCH, "the time-stamp covers other data", Optional.empty(), List.of());
            }
            @SuppressWarnings("unchecked")
            Collection<X509CertificateHolder> certs = t.getCertificates().getMatches(t.getSID());
            if (certs.isEmpty()) {
                return new Result(C2paStatus.Codes.TIMESTAMP_MISMATCH, "the time-stamp token lacks its authority's certificate",
                        Optional.empty(), List.of());
            }
            X509CertificateHolder signer = certs.iterator().next();
            t.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider(CoseSign1.BC).build(signer));
            JcaX509CertificateConverter conv = new JcaX509CertificateConverter().setProvider(CoseSign1.BC);
            @SuppressWarnings("unchecked")
            Collection<X509CertificateHolder> all = t.getCertificates().getMatches(null);
            List<X509Certificate> chain = new ArrayList<>();
            chain.add(conv.getCertificate(signer));
            for (X509CertificateHolder h : all) {
                if (!h.equals(signer)) {
                    chain.add(conv.getCertificate(h));
                }
            }
            return new Result(C2paStatus.Codes.TIMESTAMP_VALIDATED, "time-stamp " + t.getTimeStampInfo().getGenTime().toInstant()
                    + " by " + signer.getSubject(), Optional.of(t.getTimeStampInfo().getGenTime().toInstant()), chain);
        } catch (Exception e) {
            return new Result(C2paStatus.Codes.TIMESTAMP_MISMATCH, "the time-stamp does not verify: " + e.getMessage(),
                    Optional.empty(), List.of());
        }
    }
}
