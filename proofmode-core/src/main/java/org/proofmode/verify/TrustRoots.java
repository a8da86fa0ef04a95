// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** The system's trusted root certificates, for device attestations. */
public final class TrustRoots {
    /** Debian's (and Ubuntu's) bundle of the system's trusted roots. */
    static final Path DEBIAN_BUNDLE = Path.of("/etc/ssl/certs/ca-certificates.crt");

    private TrustRoots() {
    }

    /**
     * The system's trusted roots: Debian's bundle when there is one, else the JDK's {@code cacerts}.
     *
     * @throws ProofModeException with {@link Failure#IO} when neither can be read
     */
    public static List<X509Certificate> system() {
        if (Files.isReadable(DEBIAN_BUNDLE)) {
            try (InputStream in = Files.newInputStream(DEBIAN_BUNDLE)) {
                return CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                        .map(X509Certificate.class::cast).toList();
            } catch (IOException | GeneralSecurityException e) {
                throw new ProofModeException(Failure.IO, DEBIAN_BUNDLE + ": cannot read the trusted roots (" + e.getMessage() + ")", e);
            }
        }
        Path cacerts = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");
        try (InputStream in = Files.newInputStream(cacerts)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(in, null);
            List<X509Certificate> out = new ArrayList<>();
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.getCertificate(alias) instanceof X509Certificate c) {
                    out.add(c);
                }
            }
            return List.copyOf(out);
        } catch (IOException | GeneralSecurityException e) {
            throw new ProofModeException(Failure.IO, cacerts + ": cannot read the trusted roots (" + e.getMessage() + ")", e);
        }
    }

    /** {@link #system()}, read once on first use. */
    static Supplier<List<X509Certificate>> systemOnce() {
        return new Supplier<>() {
            private volatile List<X509Certificate> roots;

            @Override
            public List<X509Certificate> get() {
                List<X509Certificate> r = roots;
                if (r == null) {
                    r = system();
                    roots = r;
                }
                return r;
            }
        };
    }
}
