// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** PKIX checks of an attestation's certificate chain at the attestation's own time, offline. */
final class IntegrityChains {
    private IntegrityChains() {
    }

    /**
     * Why the chain does not hold, if it does not: the first certificate must chain to one of the roots at
     * {@code at} through the others, and name {@code host} as its common name.
     */
    static Optional<String> problem(List<X509Certificate> chain, List<X509Certificate> roots, Instant at, String host) {
        if (roots.isEmpty()) {
            return Optional.of("no trusted roots to check the chain against");
        }
        X509Certificate leaf = chain.get(0);
        if (!host.equals(commonName(leaf))) {
            return Optional.of("the signing certificate names " + SafetyNetToken.clip(commonName(leaf)) + ", not " + host);
        }
        try {
            Set<TrustAnchor> anchors = new HashSet<>();
            roots.forEach(r -> anchors.add(new TrustAnchor(r, null)));
            X509CertSelector target = new X509CertSelector();
            target.setCertificate(leaf);
            PKIXBuilderParameters p = new PKIXBuilderParameters(anchors, target);
            p.setRevocationEnabled(false);
            p.setDate(Date.from(at));
            p.setMaxPathLength(DeviceIntegrityChecks.MAX_CHAIN);
            p.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(chain)));
            CertPathBuilder.getInstance("PKIX").build(p);
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            return Optional.of("the certificate chain does not lead to a trusted root at the attestation's time " + at
                    + " (" + SafetyNetToken.clip(e.getMessage()) + ")");
        }
    }

    private static String commonName(X509Certificate c) {
        try {
            for (Rdn r : new LdapName(c.getSubjectX500Principal().getName()).getRdns()) {
                if (r.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(r.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return "";
    }
}
