// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cms.SignerId;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.RuntimeOperatorException;
import org.bouncycastle.tsp.TSPException;
import org.proofmode.util.CertificatePaths;

/**
 * Checks an RFC 3161 token against the data it should cover and a set of trusted roots: the message
 * imprint, the signature (with the signing-certificate binding and the time-stamping key usage), and
 * the chain of the authority's certificate to a trusted root at the token's time.
 *
 * <p>Security: a token whose chain does not reach a trusted root is reported {@link Kind#UNTRUSTED},
 * never valid: anyone can run a time-stamp authority. Revocation is not checked (offline).
 */
public final class TokenVerifier {
    /** The outcome of a check. */
    public enum Kind {
        /** Intact, covers the data, and the authority chains to a trusted root. */
        VALID,
        /** Intact and covers the data, but the authority is not anchored in a trusted root. */
        UNTRUSTED,
        /** Malformed, or the imprint or the signature does not match. */
        INVALID
    }

    /**
     * Data a token may cover.
     *
     * @param description what it is, for messages (e.g. "the media signature &lt;h&gt;.asc")
     * @param data the bytes, hashed with the token's imprint algorithm; empty if only {@code sha256} is known
     * @param sha256 the SHA-256 of the data
     */
    public record Candidate(String description, Optional<byte[]> data, byte[] sha256) {
        /** Validates and copies. */
        public Candidate {
            Objects.requireNonNull(description, "description");
            data = data.map(byte[]::clone);
            sha256 = sha256.clone();
        }
    }

    /**
     * What the check found.
     *
     * @param kind valid, untrusted or invalid
     * @param message one sentence for people
     * @param genTime the token's time, when it could be read
     * @param tsa the authority's name (token name or certificate subject), when known
     * @param covers the description of the candidate whose imprint matched, if one did
     */
    public record Result(Kind kind, String message, Optional<Instant> genTime, Optional<String> tsa,
            Optional<String> covers) {
        /** Validates the fields. */
        public Result {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(genTime, "genTime");
            Objects.requireNonNull(tsa, "tsa");
            Objects.requireNonNull(covers, "covers");
        }
    }

    private final List<X509Certificate> roots;

    /** Creates a verifier that trusts these root certificates. */
    public TokenVerifier(List<X509Certificate> roots) {
        this.roots = List.copyOf(roots);
    }

    /**
     * Checks a {@code .tsr}.
     *
     * @param tsr the file's bytes
     * @param candidates what the token may cover, in order of preference
     */
    public Result verify(byte[] tsr, List<Candidate> candidates) {
        TsaToken t;
        try {
            t = TsaToken.parse(tsr);
        } catch (TsaFormatException e) {
            return invalid("malformed: " + e.getMessage(), Optional.empty(), Optional.empty());
        }
        Optional<Instant> time = Optional.of(t.genTime());
        Optional<X509CertificateHolder> signer = signerCertificate(t);
        Optional<String> tsa = t.tsaName().or(() -> signer.map(c -> printable(c.getSubject())));
        Optional<String> covers = Optional.empty();
        for (Candidate c : candidates) {
            Optional<byte[]> h = hash(t.imprintAlgorithm(), c);
            if (h.isPresent() && MessageDigest.isEqual(h.get(), t.imprint())) {
                covers = Optional.of(c.description());
                break;
            }
        }
        if (covers.isEmpty()) {
            return new Result(Kind.INVALID, "message imprint mismatch: the token covers other data than "
                    + String.join(" or ", candidates.stream().map(Candidate::description).toList()), time, tsa, Optional.empty());
        }
        if (signer.isEmpty()) {
            return new Result(Kind.INVALID, "the token carries no certificate of its signer, so its signature cannot be checked",
                    time, tsa, covers);
        }
        try {
            t.token().validate(new JcaSimpleSignerInfoVerifierBuilder().build(signer.get()));
        } catch (TSPException | OperatorCreationException | CertificateException e) {
            return new Result(Kind.INVALID, "bad token signature (" + TsaToken.oneLine(e) + ")", time, tsa, covers);
        } catch (RuntimeOperatorException e) {
            // The signature value itself is not what its algorithm says (e.g. an ECDSA value that is not DER).
            return new Result(Kind.INVALID, "bad token signature (" + TsaToken.oneLine(e) + ")", time, tsa, covers);
        } catch (RuntimeException e) {
            if (!TsaToken.malformedInput(e)) {
                throw e;
            }
            return new Result(Kind.INVALID, "bad token signature (" + TsaToken.oneLine(e) + ")", time, tsa, covers);
        }
        String what = "time-stamped " + t.genTime() + " by " + tsa.orElse("an unnamed authority") + "; covers " + covers.get();
        Optional<String> chainProblem = chain(signer.get(), t);
        if (chainProblem.isPresent()) {
            return new Result(Kind.UNTRUSTED, what + ", but the authority is not trusted: " + chainProblem.get(), time, tsa, covers);
        }
        return new Result(Kind.VALID, what, time, tsa, covers);
    }

    /** A certificate name for messages; a name that cannot be decoded (bad UTF-8) is said so. */
    private static String printable(X500Name name) {
        try {
            return name.toString();
        } catch (RuntimeException e) {
            if (!TsaToken.malformedInput(e)) {
                throw e;
            }
            return "(a certificate whose name cannot be decoded)";
        }
    }

    private static Result invalid(String message, Optional<Instant> time, Optional<String> tsa) {
        return new Result(Kind.INVALID, message, time, tsa, Optional.empty());
    }

    private Optional<X509CertificateHolder> signerCertificate(TsaToken t) {
        SignerId sid = t.token().getSID();
        for (X509CertificateHolder c : t.certificates()) {
            if (matches(sid, c)) {
                return Optional.of(c);
            }
        }
        for (X509Certificate r : roots) {
            try {
                X509CertificateHolder h = new X509CertificateHolder(r.getEncoded());
                if (matches(sid, h)) {
                    return Optional.of(h);
                }
            } catch (IOException | CertificateEncodingException e) {
                // an unusable root cannot be the signer
            }
        }
        return Optional.empty();
    }

    /** Whether a certificate is the signer's; a certificate too broken to compare is not. */
    private static boolean matches(SignerId sid, X509CertificateHolder c) {
        try {
            return sid.match(c);
        } catch (RuntimeException e) {
            if (!TsaToken.malformedInput(e)) {
                throw e;
            }
            return false;
        }
    }

    private static Optional<byte[]> hash(ASN1ObjectIdentifier alg, Candidate c) {
        if (alg.equals(NISTObjectIdentifiers.id_sha256)) {
            return Optional.of(c.sha256());
        }
        String name = alg.equals(NISTObjectIdentifiers.id_sha384) ? "SHA-384"
                : alg.equals(NISTObjectIdentifiers.id_sha512) ? "SHA-512" : null;
        if (name == null || c.data().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MessageDigest.getInstance(name).digest(c.data().get()));
        } catch (GeneralSecurityException e) {
            return Optional.empty();
        }
    }

    /** Empty if the signer chains to a trusted root at the token's time; otherwise why not. */
    private Optional<String> chain(X509CertificateHolder signer, TsaToken t) {
        if (roots.isEmpty()) {
            return Optional.of("no trusted time-stamp roots are configured (--tsa-trust CA.pem, or PEM files in PROOFMODE_HOME/tsa-roots/)");
        }
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            X509Certificate leaf = (X509Certificate) cf.generateCertificate(new ByteArrayInputStream(signer.getEncoded()));
            for (X509Certificate r : roots) {
                if (Arrays.equals(r.getEncoded(), leaf.getEncoded())) {
                    return Optional.empty();
                }
            }
            List<X509Certificate> pool = new ArrayList<>();
            pool.add(leaf);
            for (X509CertificateHolder h : t.certificates()) {
                pool.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(h.getEncoded())));
            }
            CertificatePaths.requirePath(leaf, pool, roots, t.genTime(), OptionalInt.empty());
            return Optional.empty();
        } catch (GeneralSecurityException | IOException e) {
            return Optional.of("its certificate does not chain to a trusted root (" + TsaToken.oneLine(e) + ")");
        }
    }
}
