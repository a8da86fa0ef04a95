// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1InputStream;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.tsp.TimeStampResp;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.tsp.TimeStampTokenInfo;
import org.bouncycastle.util.Store;

/**
 * An RFC 3161 time-stamp token read from a {@code .tsr} file: either a whole {@code TimeStampResp}
 * (what {@code openssl ts -reply} writes and {@code openssl ts -verify -in} reads) or a bare token.
 * Parsing only decodes; {@link TokenVerifier} checks.
 *
 * <p>Security: the bytes are untrusted. Bouncy Castle's ASN.1 and TSP classes report malformed
 * structures with several unchecked exceptions (including a {@code NullPointerException} for an
 * empty signing-certificate attribute); each of them is turned into {@link TsaFormatException} here,
 * and only around those calls. The fuzz target {@code TsaTokenFuzzTest} holds the parser to that, and
 * its inputs folder keeps the inputs that once escaped.
 */
public final class TsaToken {
    /** Most bytes of a response or token. */
    public static final int MAX_BYTES = 64 * 1024;

    private final TimeStampToken token;
    private final Instant genTime;
    private final ASN1ObjectIdentifier imprintAlgorithm;
    private final byte[] imprint;
    private final Optional<BigInteger> nonce;
    private final Optional<String> tsaName;
    private final List<X509CertificateHolder> certificates;

    private TsaToken(TimeStampToken token) throws TsaFormatException {
        this.token = token;
        TimeStampTokenInfo info = token.getTimeStampInfo();
        if (info.getGenTime() == null || info.getMessageImprintAlgOID() == null || info.getMessageImprintDigest() == null) {
            throw new TsaFormatException("token lacks its time or message imprint");
        }
        this.genTime = info.getGenTime().toInstant();
        this.imprintAlgorithm = info.getMessageImprintAlgOID();
        this.imprint = info.getMessageImprintDigest().clone();
        this.nonce = Optional.ofNullable(info.getNonce());
        GeneralName name = info.getTsa();
        this.tsaName = name == null ? Optional.empty() : Optional.of(name.getName().toString());
        List<X509CertificateHolder> certs = new ArrayList<>();
        Store<X509CertificateHolder> store = token.getCertificates();
        Collection<X509CertificateHolder> all = store.getMatches(null);
        certs.addAll(all);
        this.certificates = List.copyOf(certs);
    }

    /**
     * Parses a {@code TimeStampResp} whose status is granted, or a bare {@code TimeStampToken}.
     *
     * @throws TsaFormatException if the bytes are neither, the response carries no token, or the
     *     token's content cannot be decoded
     */
    public static TsaToken parse(byte[] bytes) throws TsaFormatException {
        ASN1Sequence seq = der(bytes);
        try {
            if (seq.size() > 0 && seq.getObjectAt(0) instanceof ASN1ObjectIdentifier) {
                return new TsaToken(new TimeStampToken(ContentInfo.getInstance(seq)));
            }
            return new TsaToken(granted(new TimeStampResponse(TimeStampResp.getInstance(seq))));
        } catch (TSPException | IOException | IllegalArgumentException | IllegalStateException | ClassCastException | NoSuchElementException | IndexOutOfBoundsException
                | NullPointerException e) {
            throw new TsaFormatException("not a time-stamp response or token (" + oneLine(e) + ")", e);
        }
    }

    /**
     * Parses the answer of a time-stamp authority, which must be a whole {@code TimeStampResp} that
     * grants a token.
     *
     * @throws TsaFormatException if the bytes are not a response, or it grants no token
     */
    static TimeStampResponse parseResponse(byte[] bytes) throws TsaFormatException {
        ASN1Sequence seq = der(bytes);
        try {
            TimeStampResponse r = new TimeStampResponse(TimeStampResp.getInstance(seq));
            new TsaToken(granted(r));
            return r;
        } catch (TSPException | IOException | IllegalArgumentException | IllegalStateException | ClassCastException | NoSuchElementException | IndexOutOfBoundsException
                | NullPointerException e) {
            throw new TsaFormatException("not a time-stamp response (" + oneLine(e) + ")", e);
        }
    }

    /** Reads one whole DER (or BER) SEQUENCE, with nothing after it. */
    private static ASN1Sequence der(byte[] bytes) throws TsaFormatException {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length > MAX_BYTES) {
            throw new TsaFormatException("larger than " + MAX_BYTES + " bytes");
        }
        try (ASN1InputStream in = new ASN1InputStream(bytes)) {
            ASN1Primitive p = in.readObject();
            if (!(p instanceof ASN1Sequence seq)) {
                throw new TsaFormatException("not a time-stamp response or token (no ASN.1 SEQUENCE)");
            }
            if (in.available() > 0 || in.readObject() != null) {
                throw new TsaFormatException("trailing bytes after the time-stamp response");
            }
            return seq;
        } catch (IOException | IllegalArgumentException | IllegalStateException | ClassCastException | NoSuchElementException | IndexOutOfBoundsException
                | NullPointerException e) {
            throw new TsaFormatException("not a time-stamp response or token (" + oneLine(e) + ")", e);
        }
    }

    private static TimeStampToken granted(TimeStampResponse r) throws TsaFormatException {
        if (r.getTimeStampToken() == null) {
            String why = r.getStatusString();
            throw new TsaFormatException("the authority granted no token (status " + r.getStatus()
                    + (why == null ? "" : ": " + why) + ")");
        }
        return r.getTimeStampToken();
    }

    /** The token, for signature checks. */
    TimeStampToken token() {
        return token;
    }

    /** When the authority says the data existed. */
    public Instant genTime() {
        return genTime;
    }

    /** The hash algorithm of the message imprint. */
    public ASN1ObjectIdentifier imprintAlgorithm() {
        return imprintAlgorithm;
    }

    /** The message imprint: the hash of the stamped data. */
    public byte[] imprint() {
        return imprint.clone();
    }

    /** The nonce, if the request had one. */
    public Optional<BigInteger> nonce() {
        return nonce;
    }

    /** The authority's name from the token, if it gave one. */
    public Optional<String> tsaName() {
        return tsaName;
    }

    /** The certificates carried in the token. */
    public List<X509CertificateHolder> certificates() {
        return certificates;
    }

    /**
     * Tells whether an unchecked exception is one of those Bouncy Castle throws for malformed input
     * (as opposed to a bug of ours, which must not be hidden).
     */
    static boolean malformedInput(RuntimeException e) {
        return e instanceof IllegalArgumentException || e instanceof IllegalStateException || e instanceof ClassCastException
                || e instanceof NoSuchElementException || e instanceof IndexOutOfBoundsException || e instanceof NullPointerException;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        return m.replaceAll("\\s+", " ").trim();
    }
}
