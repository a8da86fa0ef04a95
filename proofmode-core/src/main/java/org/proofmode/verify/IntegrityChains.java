// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import org.proofmode.util.CertificatePaths;

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
            CertificatePaths.requirePath(leaf, chain, roots, at, OptionalInt.of(DeviceIntegrityChecks.MAX_CHAIN));
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
