// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CertificateParsingException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Checks a signing certificate against C2PA's certificate profile and the trust anchors. */
final class Credentials {
    /** Extended key usages C2PA accepts for claim signing. */
    static final Set<String> SIGNING_EKUS = Set.of("1.3.6.1.5.5.7.3.4", "1.3.6.1.5.5.7.3.36", "1.3.6.1.4.1.311.76.59.1.9",
            "1.3.6.1.4.1.62558.2.1");
    private static final String ANY_EKU = "2.5.29.37.0";
    private static final String AKI = "2.5.29.35";

    private Credentials() {}

    /** Why the leaf breaks the profile, or empty if it follows it. */
    static Optional<String> profileProblem(X509Certificate leaf) {
        if (leaf.getVersion() != 3) {
            return Optional.of("not an X.509 v3 certificate");
        }
        if (leaf.getBasicConstraints() >= 0) {
            return Optional.of("the signing certificate is a CA certificate");
        }
        boolean[] ku = leaf.getKeyUsage();
        if (ku == null || !ku[0]) {
            return Optional.of("key usage lacks digitalSignature");
        }
        if (ku.length > 5 && ku[5]) {
            return Optional.of("a signing certificate may not sign certificates");
        }
        try {
            List<String> eku = leaf.getExtendedKeyUsage();
            if (eku == null || eku.contains(ANY_EKU) || eku.stream().noneMatch(SIGNING_EKUS::contains)) {
                return Optional.of("extended key usage lacks one allowed for C2PA signing");
            }
        } catch (CertificateParsingException e) {
            return Optional.of("unreadable extended key usage");
        }
        if (leaf.getExtensionValue(AKI) == null) {
            return Optional.of("no authority key identifier");
        }
        if (leaf.getIssuerUniqueID() != null || leaf.getSubjectUniqueID() != null) {
            return Optional.of("unique identifiers are not allowed");
        }
        return Optional.empty();
    }

    /** Tells whether the chain leads from the leaf to one of the anchors, at the given time. */
    static boolean trusted(List<X509Certificate> chain, List<X509Certificate> anchors, Date at) {
        if (anchors.isEmpty()) {
            return false;
        }
        try {
            Set<TrustAnchor> ta = new HashSet<>();
            for (X509Certificate a : anchors) {
                ta.add(new TrustAnchor(a, null));
            }
            X509CertSelector sel = new X509CertSelector();
            sel.setCertificate(chain.get(0));
            PKIXBuilderParameters p = new PKIXBuilderParameters(ta, sel);
            p.setRevocationEnabled(false);
            p.setDate(at);
            p.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(chain)));
            CertPathBuilder.getInstance("PKIX").build(p);
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
