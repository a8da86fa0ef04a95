// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Objects;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;

/**
 * Asks an RFC 3161 time-stamp authority for a token over a SHA-256 digest. Every request carries a
 * fresh 64-bit nonce and asks for the authority's certificate; the answer must grant a token for this
 * exact request (imprint and nonce) or it is refused.
 */
public final class TsaClient {
    /** The media type of a request. */
    public static final String QUERY_TYPE = "application/timestamp-query";
    /** The media type of an answer. */
    public static final String REPLY_TYPE = "application/timestamp-reply";

    private final Http http;
    private final SecureRandom random;

    /** Creates a client. */
    public TsaClient(Http http, SecureRandom random) {
        this.http = Objects.requireNonNull(http, "http");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * Builds the DER request for a digest: SHA-256 imprint, a random nonce, certificate requested.
     *
     * @param sha256 the 32-byte digest to stamp
     */
    public TimeStampRequest request(byte[] sha256) {
        if (sha256.length != 32) {
            throw new IllegalArgumentException("not a SHA-256 digest");
        }
        TimeStampRequestGenerator gen = new TimeStampRequestGenerator();
        gen.setCertReq(true);
        BigInteger nonce = new BigInteger(64, random).setBit(63);
        return gen.generate(NISTObjectIdentifiers.id_sha256, sha256, nonce);
    }

    /**
     * Gets a token.
     *
     * @param tsa the authority's URL
     * @param sha256 the digest to stamp
     * @return the authority's whole DER {@code TimeStampResp}, as {@code openssl ts -verify -in} reads it
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if the authority cannot be
     *     reached or fails, {@link Failure#BAD_DATA} if it refuses or answers with something that is not
     *     a token for this request
     */
    public byte[] stamp(URI tsa, byte[] sha256) {
        TimeStampRequest req = request(sha256);
        byte[] der;
        try {
            der = req.getEncoded();
        } catch (IOException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot encode a time-stamp request", e);
        }
        Http.Response r = http.post(tsa, QUERY_TYPE, REPLY_TYPE, der, TsaToken.MAX_BYTES);
        if (r.status() != 200) {
            throw new ProofModeException(Failure.BAD_DATA, tsa + ": the time-stamp authority answered HTTP " + r.status());
        }
        byte[] body = r.body();
        try {
            TimeStampResponse resp = TsaToken.parseResponse(body);
            resp.validate(req);
        } catch (TsaFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, tsa + ": " + e.getMessage(), e);
        } catch (TSPException | RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, tsa + ": the token does not answer our request ("
                    + TsaToken.oneLine(e) + ")", e);
        }
        return body;
    }
}
