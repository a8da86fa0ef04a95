// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Home;
import org.proofmode.util.InputFiles;

/**
 * Root certificates of time-stamp authorities the user trusts: PEM files given on the command line
 * ({@code --tsa-trust}) and every {@code *.pem} / {@code *.crt} file in {@code PROOFMODE_HOME/tsa-roots/}.
 */
public final class TrustedRoots {
    /** The folder under the home that holds trusted roots. */
    public static final String FOLDER = Home.TSA_ROOTS.fileName();

    private TrustedRoots() {}

    /**
     * Reads the roots of a home folder.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a file there is not a certificate
     */
    public static List<X509Certificate> inHome(Path home) {
        Path dir = home.resolve(FOLDER);
        List<X509Certificate> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                String n = p.getFileName().toString();
                if (Files.isRegularFile(p) && (n.endsWith(".pem") || n.endsWith(".crt"))) {
                    out.addAll(read(p));
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Reads every certificate in a PEM (or DER) file.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the file does not exist,
     *     {@link Failure#BAD_DATA} if it holds no certificate
     */
    public static List<X509Certificate> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such certificate file");
        }
        try {
            byte[] bytes = InputFiles.read(file, InputFiles.CERTIFICATE_BYTES, "certificate file");
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new ProofModeException(Failure.BAD_DATA, file + ": holds no certificate");
            }
            return out;
        } catch (CertificateException e) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": not a PEM certificate (" + e.getMessage() + ")", e);
        }
    }
}
