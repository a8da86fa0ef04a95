// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Whether a certificate chains to trusted roots at a given time (PKIX, the JDK's builder), offline: the
 * one path check that time-stamp tokens and device attestations share.
 */
public final class CertificatePaths {
    private CertificatePaths() {
    }

    /**
     * Builds a path from {@code leaf} to one of {@code roots}, valid at {@code at}, from the certificates of
     * {@code pool}; revocation is not checked (nothing is fetched).
     *
     * @param maxPathLength the most intermediate certificates, when bounded
     * @throws GeneralSecurityException when no such path exists (the message says why)
     */
    public static void requirePath(X509Certificate leaf, Collection<X509Certificate> pool, Collection<X509Certificate> roots,
            Instant at, OptionalInt maxPathLength) throws GeneralSecurityException {
        Set<TrustAnchor> anchors = new HashSet<>();
        roots.forEach(r -> anchors.add(new TrustAnchor(r, null)));
        build(leaf, pool, anchors, at, maxPathLength);
    }

    /**
     * As {@link #requirePath}, with each root taken as its name and key only (RFC 5280's trust anchor): the
     * root certificate's own dates do not count, so a root reissued for the same name and key also anchors
     * chains from before its reissue.
     *
     * @throws GeneralSecurityException when no such path exists (the message says why)
     */
    public static void requirePathToKeys(X509Certificate leaf, Collection<X509Certificate> pool, Collection<X509Certificate> roots,
            Instant at, OptionalInt maxPathLength) throws GeneralSecurityException {
        Set<TrustAnchor> anchors = new HashSet<>();
        roots.forEach(r -> anchors.add(new TrustAnchor(r.getSubjectX500Principal(), r.getPublicKey(), null)));
        build(leaf, pool, anchors, at, maxPathLength);
    }

    private static void build(X509Certificate leaf, Collection<X509Certificate> pool, Set<TrustAnchor> anchors, Instant at,
            OptionalInt maxPathLength) throws GeneralSecurityException {
        Objects.requireNonNull(leaf, "leaf");
        X509CertSelector target = new X509CertSelector();
        target.setCertificate(leaf);
        PKIXBuilderParameters p = new PKIXBuilderParameters(anchors, target);
        p.setRevocationEnabled(false);
        p.setDate(Date.from(at));
        maxPathLength.ifPresent(p::setMaxPathLength);
        p.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(pool)));
        CertPathBuilder.getInstance("PKIX").build(p);
    }
}
